import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AssistantMessage, JsonObject, ToolResultMessage, Usage, UserMessage } from "@tau/ai";
import { afterEach } from "vitest";

export const FIXTURES = fileURLToPath(new URL("../fixtures/sessions/", import.meta.url));

export function fixture(name: string): string {
	return join(FIXTURES, name);
}

const created: string[] = [];

/** A fresh temp dir removed after the current test. */
export function tempDir(prefix = "tau-session-"): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	created.push(dir);
	return dir;
}

afterEach(() => {
	for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function usage(input: number, output: number): Usage {
	return {
		input,
		output,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: input + output,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

export function user(text: string, timestamp = 1_700_000_000_000): UserMessage {
	return { role: "user", content: text, timestamp };
}

export function assistant(text: string, options: Partial<AssistantMessage> = {}): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text }],
		api: "faux",
		provider: "faux",
		model: "faux-1",
		usage: usage(10, 5),
		stopReason: "stop",
		timestamp: 1_700_000_000_500,
		...options,
	};
}

export function toolCallAssistant(
	calls: { id: string; name: string; arguments: JsonObject }[],
	options: Partial<AssistantMessage> = {},
): AssistantMessage {
	return assistant("", {
		content: calls.map((call) => ({ type: "toolCall" as const, ...call })),
		stopReason: "toolUse",
		...options,
	});
}

export function toolResult(toolCallId: string, text: string, toolName = "read"): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId,
		toolName,
		content: [{ type: "text", text }],
		isError: false,
		timestamp: 1_700_000_001_000,
	};
}
