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

/**
 * The exact compact form of a `content_block_delta` the API sends, for the kinds whose one string field a
 * stream repeats for every token. The field's literal holds no raw quote or control character and only
 * backslash pairs, so it ends at the data's last `"}}`. One regular expression test checks the whole shape:
 * irregexp's native code reads the sliced string a network read yields in place, where comparing it
 * character by character in JavaScript cost as much as a full `JSON.parse`.
 */
const DELTA_FORM =
	/^\{"type":"content_block_delta","index":(?:0|[1-9][0-9]{0,8}),"delta":\{"type":"(?:text_delta","text|thinking_delta","thinking|input_json_delta","partial_json)":"(?:[^"\\\u0000-\u001f]|\\[^\u0000-\u001f])*"\}\}$/;
/** Where the index digits start, and the length of `,"delta":{"type":"` after them. */
const INDEX_START = '{"type":"content_block_delta","index":'.length;
const TYPE_HEAD = ',"delta":{"type":"'.length;
/** The text from each kind's name to its literal's opening quote, after the `"` that opens the name. */
const TEXT_HEAD = 'text_delta","text":"'.length;
const THINKING_HEAD = 'thinking_delta","thinking":"'.length;
const JSON_HEAD = 'input_json_delta","partial_json":"'.length;
const LOWER_E = 0x65;
const LOWER_H = 0x68;
const BACKSLASH = "\\";

/**
 * `content_block_delta` data in the exact compact form the API sends
 * (`{"type":"content_block_delta","index":N,"delta":{"type":"text_delta","text":"…"}}`), read without a
 * full `JSON.parse`: nearly every message of a stream has this form, and building it field by field costs
 * less than parsing it. Any other spelling returns `undefined`, and the caller parses it in full, so the
 * result is always what `JSON.parse` gives (docs/design/ai-adapters.md#anthropic-messages). Each kind's
 * delta is built with its field as a literal key, so every delta of a kind shares one object shape.
 */
export function readDeltaData(data: string): RawMessageStreamEvent | undefined {
	if (!DELTA_FORM.test(data)) return undefined;
	let at = INDEX_START;
	let index = 0;
	for (let code = data.charCodeAt(at); code >= 0x30 && code <= 0x39; code = data.charCodeAt(++at)) {
		index = index * 10 + (code - 0x30);
	}
	at += TYPE_HEAD;
	// The second letter tells the kinds apart: text_delta, thinking_delta, input_json_delta.
	const kind = data.charCodeAt(at + 1);
	const start = at + (kind === LOWER_E ? TEXT_HEAD : kind === LOWER_H ? THINKING_HEAD : JSON_HEAD);
	const end = data.length - 3;
	let value: string;
	if (data.indexOf(BACKSLASH, start) === -1) value = data.slice(start, end);
	else {
		let parsed: unknown;
		try {
			parsed = JSON.parse(data.slice(start - 1, end + 1));
		} catch {
			return undefined;
		}
		value = parsed as string;
	}
	const delta =
		kind === LOWER_E
			? { type: "text_delta", text: value }
			: kind === LOWER_H
				? { type: "thinking_delta", thinking: value }
				: { type: "input_json_delta", partial_json: value };
	return { type: "content_block_delta", index, delta } as unknown as RawMessageStreamEvent;
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
