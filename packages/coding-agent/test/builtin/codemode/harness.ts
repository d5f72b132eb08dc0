import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import {
	type CodemodeDetails,
	type CodemodeExtensionOptions,
	CodemodeWorkerPool,
	createCodemodeExtension,
} from "../../../src/builtin/codemode/index.js";
import type { AnyToolDefinition } from "../../../src/core/extensions/index.js";
import { createHarness, type HarnessOptions, textOfMessage } from "../../agent-session/harness.js";

export interface CodemodeHarnessOptions {
	tools?: AnyToolDefinition[];
	codemode?: CodemodeExtensionOptions;
	harness?: HarnessOptions;
	extensions?: ((pi: ExtensionAPI) => void)[];
}

/** A faux session with `builtin:codemode` loaded inline and active, plus test tools. */
export async function createCodemodeHarness(options: CodemodeHarnessOptions = {}) {
	const pool = options.codemode?.workerPool ?? new CodemodeWorkerPool();
	let api: ExtensionAPI | undefined;
	const h = await createHarness({
		...options.harness,
		loader: {
			extensionFactories: [
				(pi: ExtensionAPI) => {
					api = pi;
					return createCodemodeExtension({ ...options.codemode, workerPool: pool })(pi);
				},
				(pi: ExtensionAPI) => {
					for (const tool of options.tools ?? []) pi.registerTool(tool);
				},
				...(options.extensions ?? []),
			],
			...options.harness?.loader,
		},
	});
	await h.session.bindExtensions({});
	h.session.setActiveToolsByName([...h.session.getActiveToolNames(), "codemode"]);
	const requestTools: { name: string; description: string }[][] = [];
	const original = h.session.agent.streamFunction;
	h.session.agent.streamFunction = (model, context, streamOptions) => {
		// Declarations travel as system-message deltas: replay them to get this request's tool list.
		const declared = new Map<string, string>();
		for (const message of context.messages) {
			if ((message as { role: string }).role !== "system") continue;
			const delta = message as {
				toolsAdded?: { name: string; description: string }[];
				toolsRemoved?: { name: string }[];
			};
			for (const removed of delta.toolsRemoved ?? []) declared.delete(removed.name);
			for (const added of delta.toolsAdded ?? []) declared.set(added.name, added.description);
		}
		requestTools.push([...declared].map(([name, description]) => ({ name, description })));
		return original(model, context, streamOptions);
	};
	return { ...h, api: api!, pool, requestTools };
}

export type CodemodeHarness = Awaited<ReturnType<typeof createCodemodeHarness>>;

export const script = (code: string, id = "call_7") =>
	fauxAssistantMessage(fauxToolCall("codemode", { code }, { id }), { stopReason: "toolUse" });

/** Runs scripts as successive model calls and returns their tool-result messages. */
export async function runScripts(h: CodemodeHarness, ...codes: string[]) {
	const before = h.session.messages.length;
	h.faux.setResponses([...codes.map((code, i) => script(code, `call_${i + 7}`)), fauxAssistantMessage("done")]);
	await h.session.prompt("run the script");
	return h.session.messages
		.slice(before)
		.filter((m) => m.role === "toolResult")
		.map((m) => {
			const message = m as { content: unknown[]; details?: CodemodeDetails; isError?: boolean };
			return { ...message, text: textOfMessage(m), details: message.details as CodemodeDetails };
		});
}

export async function runScript(h: CodemodeHarness, code: string) {
	const [result] = await runScripts(h, code);
	return result!;
}
