import type { ImageContent } from "@tau/ai";
import type { AgentSessionRuntime } from "../../sdk/index.js";
import { takeOverStdout } from "../shared/index.js";
import type { OneShotInput } from "./one-shot.js";

/**
 * Options of `runPrintMode` (`tau -p`): text or JSON output, the messages to send and the first message with its
 * images.
 */
export interface PrintModeOptions {
	/** `text`: the final answer only; `json`: every event as a JSON line. */
	mode: "text" | "json";
	/** Prompts sent after `initialMessage`, each once the previous run settled. */
	messages?: string[];
	initialMessage?: string;
	initialImages?: ImageContent[];
}

/**
 * `tau -p` / `--mode json` for SDK hosts (docs/sdk.md): takes over stdout, runs the prompts on the
 * runtime's session, disposes the runtime and returns the exit code.
 */
export async function runPrintMode(runtime: AgentSessionRuntime, options: PrintModeOptions): Promise<number> {
	const input: OneShotInput = {
		messages: options.messages ?? [],
		...(options.initialMessage !== undefined ? { initialMessage: options.initialMessage } : {}),
		...(options.initialImages ? { initialImages: options.initialImages } : {}),
	};
	const stdout = takeOverStdout();
	if (options.mode === "json") {
		const { runJsonMode } = await import("../json/json-mode.js");
		return runJsonMode(runtime, input, stdout);
	}
	const { runTextMode } = await import("./print-mode.js");
	return runTextMode(runtime, input, stdout);
}
