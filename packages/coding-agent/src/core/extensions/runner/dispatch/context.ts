import type { AgentMessage } from "@tau/agent";
import { getCurrentSystemMessage, type Message } from "@tau/ai";
import type { ContextEventResult } from "../../api/events.js";
import type { DispatchHost } from "./dispatch-host.js";

function isSystem(message: AgentMessage): boolean {
	return (message as { role?: string }).role === "system";
}

function sameList(a: readonly AgentMessage[], b: readonly AgentMessage[]): boolean {
	return a.length === b.length && a.every((message, index) => message === b[index]);
}

/**
 * `context`: handlers see a deep copy of the conversation without system messages. An unchanged list
 * (same elements, same order) keeps the system messages at their mid-conversation positions (cache
 * friendly; in-place field edits still apply); a changed list gets the folded current system message
 * as its single head, so the prompt and tools can never be dropped through this hook.
 */
export async function dispatchContext(host: DispatchHost, messages: AgentMessage[]): Promise<AgentMessage[]> {
	const handlers = host.handlers("context");
	if (handlers.length === 0) return messages;
	const received = structuredClone(messages.filter((message) => !isSystem(message)));
	const event = { type: "context" as const, messages: [...received] };
	const ctx = host.context();
	for (const { extensionPath, handler } of handlers) {
		const before = event.messages;
		const snapshot = [...before];
		try {
			const result = (await handler(event, ctx)) as ContextEventResult | undefined;
			if (result?.messages) event.messages = result.messages;
		} catch (error) {
			host.report(extensionPath, "context", error);
			before.splice(0, before.length, ...snapshot);
			event.messages = before;
		}
	}
	if (sameList(event.messages, received)) {
		let next = 0;
		return messages.map((message) => (isSystem(message) ? message : (received[next++] as AgentMessage)));
	}
	const head = getCurrentSystemMessage(messages as Message[]);
	return head ? [head, ...event.messages] : event.messages;
}

/**
 * `context_with_system`: the full transcript after `context`; the result is sent as is. Removing the
 * leading system message is reported but honoured.
 */
export async function dispatchContextWithSystem(host: DispatchHost, messages: AgentMessage[]): Promise<AgentMessage[]> {
	const handlers = host.handlers("context_with_system");
	if (handlers.length === 0) return messages;
	const event = { type: "context_with_system" as const, messages };
	const ctx = host.context();
	for (const { extensionPath, handler } of handlers) {
		const hadLeadingSystem = event.messages[0] !== undefined && isSystem(event.messages[0]);
		try {
			const result = (await handler(event, ctx)) as ContextEventResult | undefined;
			if (result?.messages) event.messages = result.messages;
		} catch (error) {
			host.report(extensionPath, "context_with_system", error);
			continue;
		}
		const first = event.messages[0];
		if (hadLeadingSystem && (first === undefined || !isSystem(first))) {
			host.report(
				extensionPath,
				"context_with_system",
				new Error("context_with_system handler removed the leading system message"),
			);
		}
	}
	return event.messages;
}
