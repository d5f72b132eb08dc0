import type { AgentToolCallOutcome, AgentToolResult } from "@tau/agent";
import type { CodemodeTool } from "@tau/codemode";
import { errorMessage } from "../../core/errors.js";
import type { ExtensionToolContext } from "../../core/extensions/api/tool-definition.js";
import { type ScriptToolInfo, toolSample } from "./samples.js";

const MAX_ARGS_CHARS = 200;
const MAX_ERROR_CHARS = 500;

/** One row of the `codemode` result's `details.calls`, shown by the renderer. */
export interface CodemodeCallRow {
	id: string;
	name: string;
	args: string;
	status: "running" | "ok" | "error" | "cancelled";
	durationMs?: number;
	error?: string;
	cost?: number;
}

/** Call rows of one script, published on every change. */
export class CallRows {
	readonly rows: CodemodeCallRow[] = [];

	constructor(private readonly publish: () => void) {}

	start(id: string, name: string, args: unknown): CodemodeCallRow {
		let text: string;
		try {
			text = JSON.stringify(args) ?? "undefined";
		} catch {
			text = String(args);
		}
		const row: CodemodeCallRow = {
			id,
			name,
			args: text.length > MAX_ARGS_CHARS ? `${text.slice(0, MAX_ARGS_CHARS - 1)}…` : text,
			status: "running",
		};
		this.rows.push(row);
		this.publish();
		return row;
	}

	finish(row: CodemodeCallRow, status: "ok" | "error", startedAt: number, error?: string): void {
		if (row.status !== "running") return;
		row.status = status;
		row.durationMs = Math.round(performance.now() - startedAt);
		if (error !== undefined) row.error = error.slice(0, MAX_ERROR_CHARS);
		this.publish();
	}

	/** Rows still running when the script ended. */
	cancelRunning(): void {
		for (const row of this.rows) if (row.status === "running") row.status = "cancelled";
	}
}

function resultText(result: AgentToolResult<unknown>): string {
	return result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/**
 * What a script's `await tools.x()` settles to: structured content when the tool declares an
 * output schema (even for errors), else its text; a failed text result rejects.
 */
export function scriptValue(tool: { name: string; outputSchema?: unknown }, outcome: AgentToolCallOutcome): unknown {
	if (tool.outputSchema !== undefined && outcome.result.structuredContent !== undefined) {
		return outcome.result.structuredContent;
	}
	const text = resultText(outcome.result);
	if (outcome.isError) throw new Error(text || `Tool "${tool.name}" failed`);
	return text;
}

/** Sandbox tools for the callable set; every call goes through `ctx.executeTool` (hooks, nesting ids). */
export function sandboxTools(
	tools: readonly ScriptToolInfo[],
	ctx: ExtensionToolContext,
	rows: CallRows,
	parentId: string,
): CodemodeTool[] {
	let sequence = 0;
	return tools.map((tool) => ({
		name: tool.name,
		description: toolSample(tool),
		execute: async (args, { signal }) => {
			const row = rows.start(`${parentId}/${++sequence}`, tool.name, args);
			const startedAt = performance.now();
			try {
				const outcome = await ctx.executeTool(tool.name, args ?? {}, { signal });
				row.id = outcome.toolCall.id;
				rows.finish(
					row,
					outcome.isError ? "error" : "ok",
					startedAt,
					outcome.isError ? resultText(outcome.result) : undefined,
				);
				return scriptValue(tool, outcome);
			} catch (error) {
				rows.finish(row, "error", startedAt, errorMessage(error));
				throw error;
			}
		},
	}));
}
