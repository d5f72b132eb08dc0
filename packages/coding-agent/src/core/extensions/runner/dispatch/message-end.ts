import type { AgentMessage } from "@tau/agent";
import type { MessageEndEventResult } from "../../api/events.js";
import type { DispatchHost } from "./dispatch-host.js";

const SAME_ROLE_ERROR = "message_end handlers must return a message with the same role";
const CONTENT_ROLES = new Set(["user", "assistant", "toolResult", "custom"]);

function roleOf(message: AgentMessage): string | undefined {
	return (message as { role?: string }).role;
}

/**
 * `message_end`: replacements chain (each handler sees the latest message) and must keep the role.
 * The final replacement is applied in place to the original object so agent state, later events,
 * subscribers and persistence all see it. Returns whether the message was replaced.
 */
export async function dispatchMessageEnd(host: DispatchHost, message: AgentMessage): Promise<boolean> {
	const handlers = host.handlers("message_end");
	if (handlers.length === 0) return false;
	let current = message;
	const ctx = host.context();
	for (const { extensionPath, handler } of handlers) {
		let result: MessageEndEventResult | undefined;
		try {
			result = (await handler({ type: "message_end", message: current }, ctx)) as MessageEndEventResult | undefined;
		} catch (error) {
			host.report(extensionPath, "message_end", error);
			continue;
		}
		const replacement = result?.message;
		if (!replacement) continue;
		if (roleOf(replacement) !== roleOf(current)) {
			host.report(extensionPath, "message_end", new Error(SAME_ROLE_ERROR));
			continue;
		}
		current = replacement;
	}
	if (current === message) return false;
	const target = message as unknown as Record<string, unknown>;
	const source = { ...(current as unknown as Record<string, unknown>) };
	for (const key of Object.keys(target)) delete target[key];
	Object.assign(target, source);
	if (CONTENT_ROLES.has(String(target.role)) && target.content == null) target.content = [];
	return true;
}
