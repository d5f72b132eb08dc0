import type { ImageContent } from "@tau/ai";
import type { ExtensionMode } from "../../core/extensions/index.js";
import type { AgentSession, AgentSessionRuntime } from "../../sdk/index.js";
import { installShutdownSignals } from "./signals.js";

export interface OneShotInput {
	initialMessage?: string;
	initialImages?: ImageContent[];
	/** Sent one after another once the previous run settled. */
	messages: readonly string[];
}

export interface OneShotHooks {
	mode: Extract<ExtensionMode, "print" | "json">;
	/** Runs for every session the runtime holds (the first and each replacement) before extensions bind. */
	attach?: (session: AgentSession) => void;
}

/** Binds extensions for a one-shot mode; their errors go to stderr (docs/design/cli.md#print-mode). */
export async function bindOneShotExtensions(session: AgentSession, mode: OneShotHooks["mode"]): Promise<void> {
	await session.bindExtensions({
		mode,
		onError: (error) => process.stderr.write(`Extension error (${error.extensionPath}): ${error.error}\n`),
	});
}

/**
 * The shared body of print and JSON mode: signal handling, extension binding (also after a session
 * replacement), then each prompt in turn. Returns the session that ran last; the caller disposes.
 */
export async function runPrompts(runtime: AgentSessionRuntime, input: OneShotInput, hooks: OneShotHooks) {
	const removeSignals = installShutdownSignals(() => runtime.dispose());
	runtime.setRebindSession(async (session) => {
		hooks.attach?.(session);
		await bindOneShotExtensions(session, hooks.mode);
		for (const diagnostic of runtime.takeUnreportedDiagnostics()) {
			process.stderr.write(
				`${diagnostic.type === "info" ? "" : `${diagnostic.type === "error" ? "Error" : "Warning"}: `}${diagnostic.message}\n`,
			);
		}
	});
	hooks.attach?.(runtime.session);
	await bindOneShotExtensions(runtime.session, hooks.mode);
	try {
		if (input.initialMessage !== undefined) {
			await runtime.session.prompt(input.initialMessage, {
				...(input.initialImages && input.initialImages.length > 0 ? { images: input.initialImages } : {}),
			});
		}
		for (const message of input.messages) await runtime.session.prompt(message);
	} finally {
		removeSignals();
	}
}
