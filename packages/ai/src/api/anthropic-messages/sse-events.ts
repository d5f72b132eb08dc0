import { APIError } from "@anthropic-ai/sdk/core/error";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages.js";
import type { SseMessage } from "../shared/sse-reader.js";

type ErrorBody = { error?: { type?: ConstructorParameters<typeof APIError>[4] } } | null;

function parseOrUndefined(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

const DELTA_HEAD = '{"type":"content_block_delta","index":';
const DELTA_TYPE = ',"delta":{"type":"';
/**
 * The delta kinds whose one string field a stream repeats for every token: the text from the kind's name
 * to the field's opening quote, and the delta object, built with its field as a literal key so every
 * delta of a kind shares one object shape.
 */
const DELTA_KINDS: readonly { head: string; delta: (value: string) => object }[] = [
	{ head: 'text_delta","text":"', delta: (text) => ({ type: "text_delta", text }) },
	{ head: 'thinking_delta","thinking":"', delta: (thinking) => ({ type: "thinking_delta", thinking }) },
	{
		head: 'input_json_delta","partial_json":"',
		delta: (partial_json) => ({ type: "input_json_delta", partial_json }),
	},
];
/** Whether `data` holds `literal` at `at`, compared code by code: `data` is a slice of a network read, and
 * `startsWith` on such a sliced string took a slow path that cost more than the rest of the read. */
function holdsAt(data: string, at: number, literal: string): boolean {
	if (at + literal.length > data.length) return false;
	for (let i = 0; i < literal.length; i++) if (data.charCodeAt(at + i) !== literal.charCodeAt(i)) return false;
	return true;
}

/** Whether `data[from, to)` needs `JSON.parse` as a string literal's body: a quote, a backslash or a control character. */
function needsParse(data: string, from: number, to: number): boolean {
	for (let i = from; i < to; i++) {
		const code = data.charCodeAt(i);
		if (code === 0x22 || code === 0x5c || code < 0x20) return true;
	}
	return false;
}

const QUOTE = 0x22;
const CLOSE = 0x7d;

/**
 * `content_block_delta` data in the exact compact form the API sends
 * (`{"type":"content_block_delta","index":N,"delta":{"type":"text_delta","text":"…"}}`), read without a
 * full `JSON.parse`: nearly every message of a stream has this form, and building it field by field costs
 * less than parsing it. Any other spelling returns `undefined`, and the caller parses it in full, so the
 * result is always what `JSON.parse` gives (docs/design/ai-adapters.md#anthropic-messages).
 */
export function readDeltaData(data: string): RawMessageStreamEvent | undefined {
	const last = data.length - 1;
	if (!holdsAt(data, 0, DELTA_HEAD)) return undefined;
	if (data.charCodeAt(last) !== CLOSE || data.charCodeAt(last - 1) !== CLOSE || data.charCodeAt(last - 2) !== QUOTE)
		return undefined;
	let at = DELTA_HEAD.length;
	const digits = at;
	let index = 0;
	for (; at < data.length; at++) {
		const code = data.charCodeAt(at);
		if (code < 0x30 || code > 0x39) break;
		index = index * 10 + (code - 0x30);
	}
	// JSON allows no leading zero; nine digits keep the number exact.
	if (at === digits || at - digits > 9 || (data.charCodeAt(digits) === 0x30 && at - digits > 1)) return undefined;
	if (!holdsAt(data, at, DELTA_TYPE)) return undefined;
	at += DELTA_TYPE.length;
	let kind: (typeof DELTA_KINDS)[number] | undefined;
	for (const candidate of DELTA_KINDS) if (holdsAt(data, at, candidate.head)) kind = candidate;
	if (kind === undefined) return undefined;
	const literalStart = at + kind.head.length;
	const literalEnd = last - 2;
	// The opening quote must not be the closing one.
	if (literalStart > literalEnd) return undefined;
	let value: string;
	if (needsParse(data, literalStart, literalEnd)) {
		let parsed: unknown;
		try {
			parsed = JSON.parse(data.slice(literalStart - 1, literalEnd + 1));
		} catch {
			return undefined;
		}
		if (typeof parsed !== "string") return undefined;
		value = parsed;
	} else value = data.slice(literalStart, literalEnd);
	const event = { type: "content_block_delta", index, delta: kind.delta(value) };
	return event as unknown as RawMessageStreamEvent;
}

/**
 * One Anthropic SSE message as the SDK's own stream would yield it: `ping` and nameless messages are
 * skipped, an `error` message becomes the SDK's `APIError` (so error formatting is unchanged).
 */
export function decodeAnthropicSse(message: SseMessage, headers: Headers): RawMessageStreamEvent | undefined {
	if (message.event === null || message.event === "ping") return undefined;
	if (message.event === "error") {
		const body = (parseOrUndefined(message.data) ?? message.data) as ErrorBody | string;
		const type = typeof body === "object" ? body?.error?.type : undefined;
		throw new APIError(undefined, body as object, undefined, headers, type);
	}
	if (!message.data) return undefined;
	return readDeltaData(message.data) ?? (JSON.parse(message.data) as RawMessageStreamEvent);
}
