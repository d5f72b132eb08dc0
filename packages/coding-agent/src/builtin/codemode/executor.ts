import type { AgentToolResult, AgentToolUpdateCallback } from "@tau/agent";
import { CodemodeSandbox } from "@tau/codemode";
import { CodemodeSourceError, parseCodemodeSource } from "@tau/codemode/source";
import type { ExtensionAPI } from "../../core/extensions/api/extension-api.js";
import type { ExtensionToolContext } from "../../core/extensions/api/tool-definition.js";
import { discoveryGlobals } from "./discovery.js";
import { CODEMODE_TOOL_NAME } from "./loadout.js";
import { ModelCallTally, modelsGlobals } from "./models.js";
import { CallRows, type CodemodeCallRow, sandboxTools } from "./nested-tools.js";
import { formatCodemodeResult } from "./result-format.js";
import { type ScriptToolInfo, scriptToolInfo } from "./samples.js";
import { CODEMODE_STORE_ENTRY_TYPE, hasStoreChanges, readCodemodeStore } from "./store.js";
import { type CodemodeWorkerPool, codemodeWorkerCapacity, MAX_WORKER_WAIT_MS, WorkerWaitError } from "./worker-pool.js";

/** The heap limit of every script run by the coding agent. */
export const CODEMODE_MEMORY_LIMIT_BYTES = 256 * 1024 * 1024;

export interface CodemodeDetails {
	calls: CodemodeCallRow[];
	fullOutputPath?: string;
}

export interface CodemodeExecution {
	toolCallId: string;
	code: string;
	signal: AbortSignal | undefined;
	onUpdate: AgentToolUpdateCallback<CodemodeDetails> | undefined;
	ctx: ExtensionToolContext;
	pi: ExtensionAPI;
	pool: CodemodeWorkerPool;
	/** Offer `models.*` over the session's model registry. */
	models: boolean;
}

function failedBeforeStart(message: string, startedAt: number): AgentToolResult<CodemodeDetails> {
	const wall = ((performance.now() - startedAt) / 1000).toFixed(1);
	return {
		content: [
			{ type: "text", text: `Script failed\nWall time ${wall} seconds\nOutput:\n\nScript error:\n${message}` },
		],
		details: { calls: [] },
		isError: true,
	};
}

/** Tools a script may call: the callable set minus `codemode` itself, with namespace and guidelines. */
function callableTools(ctx: ExtensionToolContext, pi: ExtensionAPI): ScriptToolInfo[] {
	const infoByName = new Map(pi.getAllTools().map((info) => [info.name, info]));
	return ctx.tools
		.filter((tool) => tool.name !== CODEMODE_TOOL_NAME)
		.map((tool) => {
			const info = infoByName.get(tool.name);
			return scriptToolInfo(tool, {
				...(info?.namespace ? { namespace: info.namespace } : {}),
				guidelines: info?.promptGuidelines ?? [],
			});
		});
}

function waitFailure(error: WorkerWaitError, timeoutMs: number | undefined): string {
	if (error.reason === "aborted")
		return "Script aborted while waiting for a free codemode worker; the script did not start.";
	if (timeoutMs !== undefined && timeoutMs <= MAX_WORKER_WAIT_MS) {
		return `The script timed out while waiting for a free codemode worker (timeout_ms ${timeoutMs}); the script did not start.`;
	}
	const capacity = codemodeWorkerCapacity();
	return `No worker became free within 60 seconds; all ${capacity} workers, shared by every session in this process, are busy. The script did not start.`;
}

/** The sandbox deadline: what is left of `timeout_ms` after the worker wait; none without it. */
export function sandboxTimeoutMs(timeoutMs: number | undefined, waitedMs: number): number {
	return timeoutMs === undefined ? Number.POSITIVE_INFINITY : Math.max(1, Math.round(timeoutMs - waitedMs));
}

/** One `codemode` call (B.7): parse, admit, run in a fresh sandbox, persist store writes, format. */
export async function executeCodemode(run: CodemodeExecution): Promise<AgentToolResult<CodemodeDetails>> {
	const startedAt = performance.now();
	let source: ReturnType<typeof parseCodemodeSource>;
	try {
		source = parseCodemodeSource(run.code);
	} catch (error) {
		if (error instanceof CodemodeSourceError) return failedBeforeStart(`Invalid source: ${error.message}`, startedAt);
		throw error;
	}
	const rows = new CallRows(() =>
		run.onUpdate?.({ content: [], details: { calls: rows.rows.map((r) => ({ ...r })) } }),
	);
	run.onUpdate?.({ content: [], details: { calls: [] } });

	const tools = callableTools(run.ctx, run.pi);
	const timeoutMs = source.options.timeoutMs;
	const deadline = timeoutMs ?? Number.POSITIVE_INFINITY;
	let slot: Awaited<ReturnType<CodemodeWorkerPool["reserve"]>>;
	try {
		slot = await run.pool.reserve({
			waitMs: Math.min(deadline, MAX_WORKER_WAIT_MS),
			...(run.signal ? { signal: run.signal } : {}),
		});
	} catch (error) {
		if (error instanceof WorkerWaitError) return failedBeforeStart(waitFailure(error, timeoutMs), startedAt);
		throw error;
	}
	const waited = performance.now() - startedAt;
	const tally = new ModelCallTally();
	const sandbox = new CodemodeSandbox({
		tools: sandboxTools(tools, run.ctx, rows, run.toolCallId),
		globals: discoveryGlobals(tools),
		...(run.models ? { models: modelsGlobals(run.ctx.modelRegistry, rows, run.toolCallId, tally) } : {}),
		memoryLimitBytes: CODEMODE_MEMORY_LIMIT_BYTES,
		timeoutMs: sandboxTimeoutMs(timeoutMs, waited),
		acquireWorker: () => slot.handOver(),
	});
	let result: Awaited<ReturnType<CodemodeSandbox["execute"]>>;
	try {
		const store = readCodemodeStore(run.ctx.sessionManager.getBranch());
		result = await sandbox.execute(source.code, { ...(run.signal ? { signal: run.signal } : {}), store });
	} finally {
		await sandbox.close();
		slot.discard();
	}
	rows.cancelRunning();
	if (result.ok && hasStoreChanges(result.storeWrites)) {
		run.pi.appendEntry(CODEMODE_STORE_ENTRY_TYPE, result.storeWrites);
	}
	const formatted = formatCodemodeResult(
		result,
		rows.rows,
		performance.now() - startedAt,
		source.options.maxOutputTokens,
	);
	const content = [...formatted.content];
	const note = unshownImagesNote(tally, result.output);
	if (note) content.push({ type: "text", text: note });
	return {
		content,
		details: { calls: rows.rows, ...(formatted.fullOutputPath ? { fullOutputPath: formatted.fullOutputPath } : {}) },
		isError: formatted.isError,
		// What models.* calls cost belongs to this tool call (nested tool usage is added by the core).
		...(tally.usage ? { usage: tally.usage } : {}),
	};
}

/** Generated images reach the model only through `image()`; say so when a script showed none. */
function unshownImagesNote(tally: ModelCallTally, output: readonly { type: string }[]): string | undefined {
	if (tally.generatedImages === 0 || output.some((item) => item.type === "image")) return undefined;
	return `Note: models.generateImages produced ${tally.generatedImages} image(s) that this script did not show; pass each image block to image(block) to show it.`;
}
