import { ToolCallArgumentsStream } from "../json/tool-call-arguments.js";
import type { AssistantMessageEventStream } from "../stream/assistant-message-event-stream.js";
import type { AssistantMessage } from "../types/messages.js";

const CHARS_PER_TOKEN = 4;
export const ABORTED_MESSAGE = "Request was aborted";

export interface FauxPacing {
	/** Absent/0: one chunk per microtask. */
	tokensPerSecond?: number;
	tokenSize: { min: number; max: number };
	signal?: AbortSignal;
}

class FauxAbort extends Error {}

function chunkSizeChars(pacing: FauxPacing): number {
	const { min, max } = pacing.tokenSize;
	const tokens = min + Math.floor(Math.random() * (max - min + 1));
	return Math.max(1, tokens) * CHARS_PER_TOKEN;
}

/** Waits before the next chunk (a timer when paced, else one microtask), then checks for abort. */
async function nextChunk(pacing: FauxPacing, chars: number): Promise<void> {
	if (pacing.tokensPerSecond && pacing.tokensPerSecond > 0) {
		const ms = (chars / CHARS_PER_TOKEN / pacing.tokensPerSecond) * 1000;
		await new Promise((resolve) => setTimeout(resolve, ms));
	} else {
		await Promise.resolve();
	}
	if (pacing.signal?.aborted) throw new FauxAbort();
}

function* chunks(text: string, pacing: FauxPacing): Generator<string> {
	for (let i = 0; i < text.length; ) {
		const size = chunkSizeChars(pacing);
		yield text.slice(i, i + size);
		i += size;
	}
}

/**
 * Streams a resolved scripted reply as protocol events on `out`, mutating one working message; an abort
 * ends it with the partial content so far.
 */
export async function streamScriptedReply(
	out: AssistantMessageEventStream,
	reply: AssistantMessage,
	pacing: FauxPacing,
): Promise<void> {
	const output: AssistantMessage = { ...reply, content: [], stopReason: "pending" };
	delete output.errorMessage;
	try {
		if (pacing.signal?.aborted) throw new FauxAbort();
		out.push({ type: "start", partial: output });
		for (const block of reply.content) {
			const contentIndex = output.content.length;
			if (block.type === "text" || block.type === "thinking") {
				const field = block.type === "text" ? "text" : "thinking";
				const working = { ...block, [field]: "" } as typeof block;
				output.content.push(working);
				out.push({ type: block.type === "text" ? "text_start" : "thinking_start", contentIndex, partial: output });
				const full = block.type === "text" ? block.text : block.thinking;
				for (const delta of chunks(full, pacing)) {
					await nextChunk(pacing, delta.length);
					(working as unknown as Record<string, string>)[field] += delta;
					out.push({
						type: block.type === "text" ? "text_delta" : "thinking_delta",
						contentIndex,
						delta,
						partial: output,
					});
				}
				out.push({
					type: block.type === "text" ? "text_end" : "thinking_end",
					contentIndex,
					content: full,
					partial: output,
				});
				continue;
			}
			const working = { ...block, arguments: {} };
			output.content.push(working);
			out.push({ type: "toolcall_start", contentIndex, partial: output });
			const args = new ToolCallArgumentsStream();
			for (const delta of chunks(JSON.stringify(block.arguments), pacing)) {
				await nextChunk(pacing, delta.length);
				working.arguments = args.append(delta);
				out.push({ type: "toolcall_delta", contentIndex, delta, partial: output });
			}
			working.arguments = structuredClone(block.arguments);
			out.push({ type: "toolcall_end", contentIndex, toolCall: working, partial: output });
		}
		if (pacing.signal?.aborted) throw new FauxAbort();
	} catch (error) {
		if (!(error instanceof FauxAbort)) throw error;
		output.stopReason = "aborted";
		output.errorMessage = ABORTED_MESSAGE;
		out.push({ type: "error", reason: "aborted", error: output });
		out.end(output);
		return;
	}
	const stopReason = reply.stopReason;
	if (stopReason === "error" || stopReason === "aborted" || stopReason === "pending") {
		output.stopReason = stopReason === "pending" ? "error" : stopReason;
		output.errorMessage =
			stopReason === "pending"
				? "Faux response ended without a stop reason"
				: reply.errorMessage || `Faux response ended with stop reason "${stopReason}"`;
		out.push({ type: "error", reason: output.stopReason as "error" | "aborted", error: output });
	} else {
		output.stopReason = stopReason;
		if (reply.errorMessage !== undefined) output.errorMessage = reply.errorMessage;
		out.push({ type: "done", reason: stopReason, message: output });
	}
	out.end(output);
}
