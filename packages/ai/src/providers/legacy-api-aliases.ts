import { azureOpenAIResponsesApi } from "./lazy-apis/azure-openai-responses.js";
import { googleGenerativeAIApi } from "./lazy-apis/google-generative-ai.js";
import { googleVertexApi } from "./lazy-apis/google-vertex.js";
import { mistralConversationsApi } from "./lazy-apis/mistral-conversations.js";
import { openAICodexResponsesApi } from "./lazy-apis/openai-codex-responses.js";

/*
 * pi's per-API stream functions, kept for code written against pi-ai's compat entry. Each pair shares one
 * lazy implementation, so the SDK loads on the first request, not on import.
 */

const azure = azureOpenAIResponsesApi();
const google = googleGenerativeAIApi();
const vertex = googleVertexApi();
const mistral = mistralConversationsApi();
const codex = openAICodexResponsesApi();

export const streamAzureOpenAIResponses = azure.stream;
export const streamSimpleAzureOpenAIResponses = azure.streamSimple;
export const streamGoogle = google.stream;
export const streamSimpleGoogle = google.streamSimple;
export const streamGoogleVertex = vertex.stream;
export const streamSimpleGoogleVertex = vertex.streamSimple;
export const streamMistral = mistral.stream;
export const streamSimpleMistral = mistral.streamSimple;
export const streamOpenAICodexResponses = codex.stream;
export const streamSimpleOpenAICodexResponses = codex.streamSimple;
