import { parse as parsePartial } from "partial-json";
import type { JsonObject, JsonValue } from "../types/json.js";
import { errorMessage } from "../utils/error-message.js";
import { FlatteningText } from "./flattening-text.js";
import { StreamingJsonParser } from "./streaming-json-parser.js";

function isJsonObject(value: JsonValue | undefined): value is JsonObject {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

const NAMED_CONTROL_ESCAPES: Record<string, string> = {
	"\b": "\\b",
	"\f": "\\f",
	"\n": "\\n",
	"\r": "\\r",
	"\t": "\\t",
};
const VALID_ESCAPE_CHARS = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);

/**
 * Repairs what models commonly get wrong inside JSON strings: raw control characters are escaped and a
 * backslash before an invalid escape character (or at the very end) is doubled. Text outside strings is
 * left alone.
 */
export function repairJson(text: string): string {
	let out = "";
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i] as string;
		if (!inString) {
			out += c;
			if (c === '"') inString = true;
			continue;
		}
		if (c === '"') {
			out += c;
			inString = false;
		} else if (c === "\\") {
			const next = text[i + 1];
			if (next !== undefined && VALID_ESCAPE_CHARS.has(next)) {
				out += c + next;
				i++;
			} else if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
				out += text.slice(i, i + 6);
				i += 5;
			} else {
				out += "\\\\";
			}
		} else if (c < " ") {
			out += NAMED_CONTROL_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
		} else {
			out += c;
		}
	}
	return out;
}

/** `JSON.parse`, retried once on the repaired text when repair changed anything. */
export function parseJsonWithRepair<T = unknown>(text: string): T {
	try {
		return JSON.parse(text);
	} catch (error) {
		const repaired = repairJson(text);
		if (repaired === text) throw error;
		return JSON.parse(repaired);
	}
}

/** The strict final parse of complete tool-call argument text; never keeps a partially parsed prefix. */
export function parseToolCallArguments(text: string | undefined): { arguments: JsonObject; argumentsError?: string } {
	if (!text?.trim()) return { arguments: {} };
	let reason: string;
	try {
		const parsed = parseJsonWithRepair(text);
		if (isJsonObject(parsed as JsonValue)) return { arguments: parsed as JsonObject };
		reason = `Tool arguments must be a JSON object, got ${Array.isArray(parsed) ? "an array" : parsed === null ? "null" : typeof parsed}`;
	} catch (error) {
		reason = errorMessage(error);
	}
	return { arguments: {}, argumentsError: `${reason}\n\nReceived arguments:\n${text}` };
}

/**
 * Best-effort parse of possibly incomplete JSON, as pi-ai's function of the same name: the complete value
 * when the text parses (after repair), else what the `partial-json` library reads of it (first as is, then
 * repaired), else `{}`. Adapters stream arguments with `ToolCallArgumentsStream` instead, in linear time.
 */
export function parseStreamingJson<T = JsonObject>(text: string | undefined): T {
	if (!text?.trim()) return {} as T;
	try {
		return parseJsonWithRepair(text) as T;
	} catch {
		for (const partial of [text, repairJson(text)]) {
			try {
				return (parsePartial(partial) ?? {}) as T;
			} catch {
				// Not even a JSON prefix; try the repaired text, then give up.
			}
		}
		return {} as T;
	}
}

/**
 * The argument text of one streaming tool call and its live partial parse. Kept in adapter state, never on
 * the content block. Text given to `push` is parsed only when `current()` is read, so a stream whose
 * consumers never look at the partial arguments (JSON and RPC output) never pays for parsing them.
 */
export class ToolCallArgumentsStream {
	private parser = new StreamingJsonParser();
	private raw = new FlatteningText();
	/** Text pushed since the parser last read. */
	private unparsed: string[] = [];
	private lastSnapshot: JsonValue | undefined;
	private lastArguments: JsonObject = {};

	get text(): string {
		return this.raw.value;
	}

	/** Partial arguments after `delta`: a new object when they changed, the same object otherwise. */
	append(delta: string): JsonObject {
		this.push(delta);
		return this.current();
	}

	/** Adds `delta` to the text without parsing it yet. */
	push(delta: string): void {
		this.raw.append(delta);
		this.unparsed.push(delta);
	}

	/** Partial arguments of all text so far: a new object when they changed since the last read, else the same. */
	current(): JsonObject {
		if (this.unparsed.length === 0) return this.lastArguments;
		const { unparsed } = this;
		this.unparsed = [];
		this.parser.append(unparsed.length === 1 ? (unparsed[0] as string) : unparsed.join(""));
		const snapshot = this.parser.snapshot();
		if (snapshot !== this.lastSnapshot) {
			this.lastSnapshot = snapshot;
			this.lastArguments = isJsonObject(snapshot) ? snapshot : this.lastArguments;
		}
		return this.lastArguments;
	}

	/** Accepts the provider's full text: continues when it extends what was read, else starts over. */
	replace(fullText: string): { delta: string | undefined; arguments: JsonObject } {
		if (fullText.startsWith(this.raw.value)) {
			const delta = fullText.slice(this.raw.value.length);
			return { delta, arguments: delta ? this.append(delta) : this.current() };
		}
		this.parser = new StreamingJsonParser();
		this.raw = new FlatteningText();
		this.unparsed = [];
		this.lastSnapshot = undefined;
		this.lastArguments = {};
		return { delta: undefined, arguments: this.append(fullText) };
	}

	finish(): { arguments: JsonObject; argumentsError?: string } {
		return parseToolCallArguments(this.raw.value);
	}
}
