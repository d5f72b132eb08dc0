import type { Message } from "./messages.js";
import type { Tool } from "./tools.js";

/** What public entry points accept: `systemPrompt`/`tools` are shorthand for one leading system message. */
export interface Context {
	systemPrompt?: string;
	messages: Message[];
	tools?: Tool[];
}

declare const transcriptContextBrand: unique symbol;

/**
 * What providers and adapters accept: everything lives in `messages`. Only `normalizeContext` produces
 * one; the brand exists at the type level only.
 */
export type TranscriptContext = {
	messages: Message[];
	readonly [transcriptContextBrand]: true;
};
