import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentToolResult } from "@tau/agent";
import { afterEach } from "vitest";
import type { BuiltinToolContext } from "../../src/core/tools/index.js";

const created: string[] = [];

/** A fresh temp directory (realpath'd so results compare with resolved paths), removed after the test. */
export function tempDir(prefix = "tau-tools-"): string {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	created.push(dir);
	return dir;
}

afterEach(() => {
	for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The text of a result's first text block. */
export function textOf(result: AgentToolResult<unknown>): string {
	const block = result.content.find((item) => item.type === "text");
	return block && block.type === "text" ? block.text : "";
}

/** A tool context as the session would pass it. */
export function toolContext(cwd: string, overrides: Partial<BuiltinToolContext> = {}): BuiltinToolContext {
	return {
		cwd,
		model: { provider: "faux", id: "faux-model", input: ["text", "image"] },
		thinkingLevel: "medium",
		sessionManager: { getSessionId: () => "session-123", getSessionFile: () => "/sessions/s.jsonl" },
		...overrides,
	};
}

export const numberedLines = (count: number, prefix = "line"): string =>
	Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`).join("\n");
