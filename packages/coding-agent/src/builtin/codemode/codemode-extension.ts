import { CODEMODE_SOURCE_GRAMMAR } from "@tau/codemode/source";
import type { TObject, TString } from "typebox";
import type { ExtensionAPI, ExtensionFactory } from "../../core/extensions/api/extension-api.js";
import { jsonSchema } from "../../core/tools/json-schema.js";
import { codemodeDescription } from "./description.js";
import type { CodemodeDetails } from "./executor.js";
import { CODEMODE_TOOL_NAME, type CodemodeLoadoutOptions, prepareCodemodeLoadout } from "./loadout.js";
import { type CodemodeWorkerPool, sharedWorkerPool } from "./worker-pool.js";

export interface CodemodeExtensionOptions {
	/** Overrides settings `codemode.mode`. */
	mode?: "on" | "only";
	/** Overrides settings `codemode.inlineBudget`. */
	inlineBudget?: number;
	/** Offer `models.*` to scripts (default true). */
	models?: boolean;
	/** Worker admission; defaults to the process-wide pool. */
	workerPool?: CodemodeWorkerPool;
}

const DEFAULT_INLINE_BUDGET = 3000;
const DISCOVERY_WORDS = /\b(searchTools|describeNamespace|describeTool|ALL_TOOLS)\b/;

/** Settings `codemode.*` with factory options on top; invalid values fall back to defaults. */
function loadoutOptions(pi: ExtensionAPI, options: CodemodeExtensionOptions): CodemodeLoadoutOptions {
	const raw = (pi.getSettings() as { codemode?: { mode?: unknown; inlineBudget?: unknown } }).codemode ?? {};
	const mode = options.mode ?? (raw.mode === "only" ? "only" : "on");
	const budget = options.inlineBudget ?? raw.inlineBudget;
	const inlineBudget =
		typeof budget === "number" && Number.isFinite(budget) && budget >= 0 ? budget : DEFAULT_INLINE_BUDGET;
	return { mode, inlineBudget, models: options.models ?? true };
}

/** Servers/tools a script may reach: all when it uses a discovery global, else the words it names. */
export function codemodeReachesTools(input: Record<string, unknown>): "all" | string[] {
	const code = typeof input.code === "string" ? input.code : "";
	if (DISCOVERY_WORDS.test(code)) return "all";
	return code.match(/\w+/g) ?? [];
}

/** The built-in code mode extension (`builtin:codemode`). */
export function createCodemodeExtension(options: CodemodeExtensionOptions = {}): ExtensionFactory {
	return (pi: ExtensionAPI) => {
		const pool = options.workerPool ?? sharedWorkerPool;
		pi.registerTool<ReturnType<typeof parameters>, CodemodeDetails>({
			name: CODEMODE_TOOL_NAME,
			label: "Code mode",
			description: codemodeDescription([], { models: options.models ?? true }),
			promptSnippet: "run JavaScript that calls other tools",
			promptGuidelines: [
				"In codemode scripts, batch independent tool calls (Promise.allSettled), chain dependent ones in one script, and filter large outputs before printing them.",
			],
			parameters: parameters(),
			exposure: "model-only",
			defaultActive: false,
			constrainedSampling: { type: "grammar", variants: { openai_lark: CODEMODE_SOURCE_GRAMMAR } },
			reachesTools: codemodeReachesTools,
			prepareLoadout: (loadout) => prepareCodemodeLoadout(loadout, loadoutOptions(pi, options)),
			async execute(toolCallId, params, signal, onUpdate, ctx) {
				// Loaded on first use so sessions that never run a script never load the sandbox.
				const { executeCodemode } = await import("./executor.js");
				const models = options.models ?? true;
				return executeCodemode({ toolCallId, code: params.code, signal, onUpdate, ctx, pi, pool, models });
			},
		});
	};
}

function parameters() {
	return jsonSchema<TObject<{ code: TString }>>({
		type: "object",
		required: ["code"],
		properties: { code: { type: "string", description: "Raw JavaScript source (an async function body)" } },
	});
}
