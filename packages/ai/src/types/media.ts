import type { ImageContent, TextContent } from "./content.js";
import type { JsonObject } from "./json.js";
import type { ImageModel, ProviderId } from "./model.js";
import type { ProviderRequestOptions } from "./options.js";
import type { Usage } from "./usage.js";

/* Image generation (OpenRouter's `openrouter-images` API) and classification (shapes only). */

/** What an image generation request sends: the prompt text and input images. */
export interface ImagesContext {
	input: (TextContent | ImageContent)[];
}

/** The answer of an image generation request: the images and text the model produced, with usage. */
export interface AssistantImages {
	api: string;
	provider: ProviderId;
	model: string;
	output: (TextContent | ImageContent)[];
	responseId?: string;
	usage?: Usage;
	stopReason: "stop" | "error" | "aborted";
	errorMessage?: string;
	timestamp: number;
}

/** One question for a classifier: pick a label, give a score, or answer yes or no, with instructions and criteria. */
export type ClassifierQuestion =
	| { type: "choice"; instructions: string; criteria: Record<string, string> }
	| { type: "score"; instructions: string; criteria: string[] }
	| { type: "bool"; instructions: string; criteria: { true: string; false: string } };

/** What a classifier is asked: the state (and images) to judge and the questions by name. */
export interface ClassifierContext {
	state: JsonObject;
	images?: ImageContent[];
	questions: Record<string, ClassifierQuestion>;
}

/** A classifier's answer to one question: the chosen label with probabilities, a score, or a yes/no probability. */
export type ClassifierAnswer =
	| { type: "choice"; choice: string; probabilities: Record<string, number>; confidence: number }
	| { type: "score"; score: number; confidence: number }
	| { type: "bool"; probability: number };

/** A classifier's answers by question name, with usage. */
export interface ClassifierResult {
	api: string;
	provider: ProviderId;
	model: string;
	answers: Record<string, ClassifierAnswer>;
	usage?: Usage;
	stopReason: "stop" | "error" | "aborted";
	errorMessage?: string;
	timestamp: number;
}

/** Options of an image or classifier request: abort signal, API key, headers and environment. */
export interface MediaRequestOptions {
	signal?: AbortSignal;
	apiKey?: string;
	headers?: Record<string, string | null>;
	env?: Record<string, string>;
}

/** Options of one image generation request. */
export interface ImagesOptions extends ProviderRequestOptions<ImageModel> {
	/** Request metadata; an API sends the fields it understands. */
	metadata?: Record<string, unknown>;
}

/** Image options plus whatever an API-specific implementation understands. */
export type ProviderImagesOptions = ImagesOptions & Record<string, unknown>;

/** One image generation request; never rejects (failures are `stopReason: "error"` results). */
export type ImagesFunction<TOptions extends ImagesOptions = ImagesOptions> = (
	model: ImageModel,
	context: ImagesContext,
	options?: TOptions,
) => Promise<AssistantImages>;
