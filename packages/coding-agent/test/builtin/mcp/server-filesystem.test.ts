import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../support/isolated-session.js";
import {
	createMcpHarness,
	fakeCodemode,
	type McpHarness,
	realServersInstalled,
	SERVER_FILESYSTEM,
	shutdownAndAssertNoProcesses,
	waitForTools,
} from "./harness.js";

let h: McpHarness | undefined;
afterEach(async () => {
	if (h) await shutdownAndAssertNoProcesses(h);
	h = undefined;
});

function results(harness: McpHarness) {
	return harness.events.flatMap((event) =>
		event.type === "tool_execution_end"
			? [
					{
						toolName: event.toolName,
						isError: event.isError,
						...(event.result as {
							content: { type: string; text?: string }[];
							details?: { fullOutputPath?: string };
						}),
					},
				]
			: [],
	);
}
const textOf = (result: { content: { type: string; text?: string }[] }) =>
	result.content.flatMap((block) => (block.type === "text" ? [block.text ?? ""] : [])).join("\n");

function toolMatching(harness: McpHarness, pattern: RegExp): string {
	const tool = harness.session
		.getAllTools()
		.find((candidate) => candidate.name.startsWith("mcp__fs__") && pattern.test(candidate.name));
	if (!tool) throw new Error(`no filesystem tool matching ${pattern}`);
	return tool.name;
}

describe.skipIf(!realServersInstalled)(
	"builtin:mcp with server-filesystem rooted at a temp dir (skipped without TAU_MCP_SERVERS)",
	() => {
		it("roots/list gives the session cwd; read, write and list directly; readOnlyHint propagated", async () => {
			const cwd = realpathSync(tempDir("tau-mcp-fs-"));
			writeFileSync(join(cwd, "hello.txt"), "hello from disk");
			// Started on another directory: the server switches to the client's roots, i.e. the session cwd.
			const elsewhere = realpathSync(tempDir("tau-mcp-elsewhere-"));
			h = await createMcpHarness(
				{ fs: { command: SERVER_FILESYSTEM, args: [elsewhere], exposure: "direct" } },
				{ harness: { cwd } },
			);
			await waitForTools(h, "mcp__fs__");
			const allowed = toolMatching(h, /allowed/);
			const read = toolMatching(h, /read_text_file|read_file$/);
			const write = toolMatching(h, /write_file/);
			const list = toolMatching(h, /list_directory$/);
			expect(h.session.getAllTools().find((tool) => tool.name === read)?.annotations).toMatchObject({
				readOnlyHint: true,
			});
			h.faux.setResponses([
				fauxAssistantMessage(
					[
						fauxToolCall(allowed, {}, { id: "a" }),
						fauxToolCall(read, { path: join(cwd, "hello.txt") }, { id: "r" }),
						fauxToolCall(write, { path: join(cwd, "new.txt"), content: "written by mcp" }, { id: "w" }),
					],
					{ stopReason: "toolUse" },
				),
				fauxAssistantMessage(fauxToolCall(list, { path: cwd }, { id: "l" }), { stopReason: "toolUse" }),
				fauxAssistantMessage("done"),
			]);
			await h.session.prompt("go");
			const [allowedResult, readResult, writeResult, listResult] = results(h);
			expect(textOf(allowedResult!)).toContain(cwd);
			expect(textOf(allowedResult!)).not.toContain(elsewhere);
			expect(textOf(readResult!)).toContain("hello from disk");
			expect(writeResult!.isError).toBe(false);
			expect(readFileSync(join(cwd, "new.txt"), "utf8")).toBe("written by mcp");
			expect(textOf(listResult!)).toMatch(/hello\.txt[\s\S]*new\.txt|new\.txt[\s\S]*hello\.txt/);
		});

		it("a > 20 KiB direct result is middle-truncated with a readable temp file, while a script gets the full text", async () => {
			const cwd = realpathSync(tempDir("tau-mcp-fs-"));
			const big = Array.from({ length: 2000 }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n");
			writeFileSync(join(cwd, "big.txt"), big);
			h = await createMcpHarness(
				{ fs: { command: SERVER_FILESYSTEM, args: [cwd], toolExposure: { "read_*": "direct" } } },
				{ harness: { cwd }, extraExtensions: [fakeCodemode()] },
			);
			await waitForTools(h, "mcp__fs__");
			const read = toolMatching(h, /read_text_file|read_file$/);
			h.faux.setResponses([
				fauxAssistantMessage(fauxToolCall(read, { path: join(cwd, "big.txt") }, { id: "d" }), {
					stopReason: "toolUse",
				}),
				fauxAssistantMessage(
					fauxToolCall("codemode", { code: JSON.stringify([read, { path: join(cwd, "big.txt") }]) }, { id: "s" }),
					{
						stopReason: "toolUse",
					},
				),
				fauxAssistantMessage("done"),
			]);
			await h.session.prompt("read big");
			const direct = results(h).find((result) => result.toolName === read && textOf(result).includes("truncated"))!;
			const text = textOf(direct);
			expect(Buffer.byteLength(text)).toBeLessThanOrEqual(20 * 1024);
			expect(text).toMatch(/…\d+ chars truncated…/);
			const path = direct.details?.fullOutputPath;
			expect(path && existsSync(path)).toBe(true);
			expect(readFileSync(path!, "utf8")).toContain(big);
			const script = results(h).find((result) => result.toolName === "codemode")!;
			const outcome = JSON.parse(textOf(script)) as {
				result: { structuredContent: { content: { type: string; text: string }[] } };
			};
			expect(outcome.result.structuredContent.content[0]!.text).toBe(big);
		});
	},
);
