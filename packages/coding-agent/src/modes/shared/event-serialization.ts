import type { AssistantMessage, AssistantMessageEvent, Usage } from "@tau/ai";
import type { AgentSessionEvent } from "../../sdk/index.js";

type WithoutPartial<E> = E extends { partial: unknown } ? Omit<E, "partial"> : E;

/** The provider stream event on the wire: no `partial`, and `toolcall_start` names its call. */
export type JsonAssistantMessageEvent =
	| Exclude<WithoutPartial<AssistantMessageEvent>, { type: "toolcall_start" }>
	| { type: "toolcall_start"; contentIndex: number; id: string; toolName: string };

/** A session event as JSON and RPC modes write it (rpc-protocol.md §5.2). */
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
