import {
	type AssistantMessageEventStream,
	createAssistantMessageEventStream,
} from "../../stream/assistant-message-event-stream.js";
import type { Api, Model } from "../../types/model.js";
import { AssistantOutput } from "./assistant-output.js";

export const ABORTED_MESSAGE = "Request was aborted";

export interface AdapterRun {
	/** Builds, sends and consumes one request, mutating `output` and pushing its events. */
	execute(output: AssistantOutput): Promise<void>;
	/** The error text for anything `execute` threw (formatting differs per adapter, docs/design/ai-adapters.md#adapter-skeleton). */
	formatError(error: unknown): string;
	/** Thrown when the provider stream ended without any stop reason. */
	pendingMessage: string;
}

/**
 * The common adapter skeleton (docs/design/ai-adapters.md#adapter-skeleton): returns the stream synchronously, runs the request in
 * the background, and turns every failure into one terminal `error` event that keeps everything
 * generated so far. Nothing escapes as an exception.
 */
export function runAdapterStream(
	model: Model<Api>,
	signal: AbortSignal | undefined,
	run: AdapterRun,
): AssistantMessageEventStream {
	const events = createAssistantMessageEventStream();
	const output = new AssistantOutput(model, events);
	void (async () => {
		const message = output.message;
		try {
			await run.execute(output);
			if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
			if (message.stopReason === "pending") throw new Error(run.pendingMessage);
			if (message.stopReason === "error" || message.stopReason === "aborted") {
				throw new Error(message.errorMessage || run.pendingMessage);
			}
			events.push({ type: "done", reason: message.stopReason, message });
			events.end();
		} catch (error) {
			const aborted = signal?.aborted === true;
			message.stopReason = aborted ? "aborted" : "error";
			message.errorMessage = aborted ? ABORTED_MESSAGE : run.formatError(error) || "Unknown error";
			events.push({ type: "error", reason: message.stopReason, error: message });
			events.end();
		}
	})();
	return events;
}
