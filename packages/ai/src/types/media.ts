import type { ImageContent, TextContent } from "./content.js";
import type { JsonObject } from "./json.js";
import type { ImageModel, ProviderId } from "./model.js";
import type { ProviderRequestOptions } from "./options.js";
import type { Usage } from "./usage.js";

/* Image generation (OpenRouter's `openrouter-images` API) and classification (shapes only). */

export interface ImagesContext {
	input: (TextContent | ImageContent)[];
}

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

export type ClassifierQuestion =
	| { type: "choice"; instructions: string; criteria: Record<string, string> }
	| { type: "score"; instructions: string; criteria: string[] }
	| { type: "bool"; instructions: string; criteria: { true: string; false: string } };

export interface ClassifierContext {
	state: JsonObject;
	images?: ImageContent[];
	questions: Record<string, ClassifierQuestion>;
}

export type ClassifierAnswer =
	| { type: "choice"; choice: string; probabilities: Record<string, number>; confidence: number }
	| { type: "score"; score: number; confidence: number }
	| { type: "bool"; probability: number };

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
