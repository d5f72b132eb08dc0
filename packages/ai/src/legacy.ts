// `@tau/ai/legacy` (also `@tau/ai/compat`): the root entry plus every built-in catalog and provider
// factory and pi's per-API stream functions, in one namespace. Pi extensions import catalog reads such as
// `getModel` from pi-ai's root; the coding agent serves them this module so they keep working while
// `@tau/ai` stays catalog-free.
export * from "./index.js";
export * from "./providers/builtin/all.js";
export * from "./providers/builtin/amazon-bedrock.js";
export * from "./providers/builtin/anthropic.js";
export * from "./providers/builtin/azure.js";
export * from "./providers/builtin/cloudflare.js";
export * from "./providers/builtin/google-vertex.js";
export * from "./providers/builtin/hosted.js";
export * from "./providers/builtin/local.js";
export * from "./providers/builtin/openai-codex.js";
export { setBedrockProviderLoader, setBedrockProviderModule } from "./providers/lazy-apis/bedrock-converse-stream.js";
export * from "./providers/legacy-api-aliases.js";
