import type { AssistantMessage, AssistantMessageEvent, Usage } from "@tau/ai";
import type { AgentSessionEvent } from "../../sdk/index.js";

type WithoutPartial<E> = E extends { partial: unknown } ? Omit<E, "partial"> : E;

/** The provider stream event on the wire: no `partial`, and `toolcall_start` names its call. */
export type JsonAssistantMessageEvent =
	| Exclude<WithoutPartial<AssistantMessageEvent>, { type: "toolcall_start" }>
	| { type: "toolcall_start"; contentIndex: number; id: string; toolName: string };

/** A session event as JSON and RPC modes write it (docs/design/rpc.md#events). */
export type JsonAgentSessionEvent =
	| Exclude<AgentSessionEvent, { type: "message_update" }>
	| { type: "message_update"; usage: Usage; assistantMessageEvent: JsonAssistantMessageEvent };

/**
 * Reduces `message_update` to the event delta plus cumulative usage so output grows linearly with
 * the stream; every other event passes through unchanged.
 */
export function toJsonEvent(event: AgentSessionEvent): JsonAgentSessionEvent {
	if (event.type !== "message_update") return event;
	const partial = event.message as AssistantMessage;
	return {
		type: "message_update",
		usage: partial.usage,
		assistantMessageEvent: toJsonAssistantEvent(event.assistantMessageEvent),
	};
}

function toJsonAssistantEvent(event: AssistantMessageEvent): JsonAssistantMessageEvent {
	if (!("partial" in event)) return event;
	const { partial, ...rest } = event;
	if (rest.type !== "toolcall_start") return rest as JsonAssistantMessageEvent;
	const block = partial.content[rest.contentIndex];
	const call = block?.type === "toolCall" ? block : undefined;
	return { type: "toolcall_start", contentIndex: rest.contentIndex, id: call?.id ?? "", toolName: call?.name ?? "" };
}

/**
 * The `usage` of streaming updates as JSON, reused while the record is the same object with the same
 * token counts: a response's usage changes a few times while its deltas number in the thousands, and
 * re-serializing it was most of the cost of each `message_update` line (docs/cli.md, JSON mode).
 */
class UsageJsonCache {
	private usage: Usage | undefined;
	private counts: readonly number[] = [];
	private json = "";

	get(usage: Usage): string {
		const { counts } = this;
		if (
			usage !== this.usage ||
			usage.input !== counts[0] ||
			usage.output !== counts[1] ||
			usage.cacheRead !== counts[2] ||
			usage.cacheWrite !== counts[3] ||
			usage.totalTokens !== counts[4]
		) {
			this.usage = usage;
			this.counts = [usage.input, usage.output, usage.cacheRead, usage.cacheWrite, usage.totalTokens];
			this.json = JSON.stringify(usage);
		}
		return this.json;
	}
}

const usageJson = new UsageJsonCache();

/**
 * The text of a delta line before its `delta` string: the same for every delta of a content block while
 * the usage is unchanged, so it is built once instead of per line (docs/cli.md, JSON mode).
 */
class DeltaPrefixCache {
	private usage = "";
	private type = "";
	private contentIndex = Number.NaN;
	private prefix = "";

	get(usage: string, type: string, contentIndex: number): string {
		if (usage !== this.usage || type !== this.type || contentIndex !== this.contentIndex) {
			this.usage = usage;
			this.type = type;
			this.contentIndex = contentIndex;
			this.prefix = `{"type":"message_update","usage":${usage},"assistantMessageEvent":{"type":"${type}","contentIndex":${contentIndex},"delta":`;
		}
		return this.prefix;
	}
}

const deltaPrefix = new DeltaPrefixCache();

/**
 * One session event as a JSONL record, exactly `JSON.stringify(toJsonEvent(event))` plus LF; a
 * `message_update` takes its `usage` JSON from the cache.
 */
export function serializeJsonEvent(event: AgentSessionEvent): string {
	if (event.type === "message_update") {
		const assistantEvent = event.assistantMessageEvent;
		const usage = (event.message as AssistantMessage).usage;
		if (isPlainDelta(assistantEvent) && typeof usage === "object" && usage !== null) {
			const prefix = deltaPrefix.get(usageJson.get(usage), assistantEvent.type, assistantEvent.contentIndex);
			return `${prefix}${JSON.stringify(assistantEvent.delta)}}}\n`;
		}
	}
	const record = toJsonEvent(event);
	if (record.type !== "message_update" || typeof record.usage !== "object" || record.usage === null) {
		return `${JSON.stringify(record)}\n`;
	}
	const assistantEvent = JSON.stringify(record.assistantMessageEvent);
	return `{"type":"message_update","usage":${usageJson.get(record.usage)},"assistantMessageEvent":${assistantEvent}}\n`;
}

type PlainDelta = Extract<AssistantMessageEvent, { type: "text_delta" | "thinking_delta" | "toolcall_delta" }>;

/** The keys of a delta event as every adapter builds it, in order. */
const DELTA_KEYS = ["type", "contentIndex", "delta", "partial"] as const;

/**
 * Whether a text, thinking or tool-call delta has exactly the shape every adapter emits (`type`,
 * `contentIndex`, `delta`, `partial`, in that order): its JSON without `partial` is then written
 * directly. These are nearly every line of a stream, and copying the event without `partial` first cost
 * more than the text itself. The keys are walked with `for…in`, which allocates nothing (`Object.keys`
 * allocated an array per line); any other key, own or inherited, takes the general path, so the text
 * stays exactly what `JSON.stringify` of the record gives.
 */
function isPlainDelta(event: AssistantMessageEvent): event is PlainDelta {
	if (event.type !== "text_delta" && event.type !== "thinking_delta" && event.type !== "toolcall_delta") return false;
	let count = 0;
	for (const key in event) {
		if (key !== DELTA_KEYS[count]) return false;
		count++;
	}
	return count === DELTA_KEYS.length && Number.isFinite(event.contentIndex) && typeof event.delta === "string";
}
