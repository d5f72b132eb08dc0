import type { Context, TranscriptContext } from "../types/context.js";
import type { SystemMessage } from "../types/messages.js";
import type { Tool } from "../types/tools.js";

/** The leading system message that `systemPrompt`/`tools` stand for, or undefined when both are empty. */
export function createInitialSystemMessage(
	systemPrompt: string | undefined,
	tools: readonly Tool[] | undefined,
): SystemMessage | undefined {
	const hasTools = tools !== undefined && tools.length > 0;
	if (!systemPrompt && !hasTools) return undefined;
	const message: SystemMessage = { role: "system", content: systemPrompt ?? "", timestamp: 0 };
	if (hasTools) message.toolsAdded = [...tools];
	return message;
}

/** The only producer of a `TranscriptContext`: moves the shorthand prompt/tools into the transcript. */
export function normalizeContext(context: Context): TranscriptContext {
	const head = createInitialSystemMessage(context.systemPrompt, context.tools);
	const messages = head ? [head, ...context.messages] : context.messages;
	return { messages } as TranscriptContext;
}
