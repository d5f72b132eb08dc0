/**
 * builtin:mcp together with the real builtin:codemode and builtin:tool-search: scripts calling MCP tools,
 * discovery waiting for servers, and tools loaded by tool_search within a run.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { CodemodeWorkerPool, createCodemodeExtension } from "../../../src/builtin/codemode/index.js";
import { createToolSearchExtension } from "../../../src/builtin/tool-search/index.js";
import { textOfMessage } from "../../agent-session/harness.js";
import { tempDir } from "../../support/isolated-session.js";
import {
	createMcpHarness,
	type McpHarness,
	realServersInstalled,
	SERVER_EVERYTHING,
	shutdownAndAssertNoProcesses,
	waitForTools,
} from "./harness.js";

const SCRIPTED = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));
const scripted = (...args: string[]) => ({ command: process.execPath, args: [SCRIPTED, ...args] });

const harnesses: McpHarness[] = [];
afterEach(async () => {
	for (const harness of harnesses.splice(0)) await shutdownAndAssertNoProcesses(harness);
});

async function harness(
	servers: Record<string, unknown>,
	builtins: "codemode" | "tool_search",
	options: { startupWaitMs?: number; extra?: ((pi: ExtensionAPI) => void)[] } = {},
): Promise<McpHarness> {
	const extension =
		builtins === "codemode"
			? createCodemodeExtension({ workerPool: new CodemodeWorkerPool() })
			: createToolSearchExtension();
	const h = await createMcpHarness(servers, {
		extraExtensions: [extension, ...(options.extra ?? [])],
		mcp: options.startupWaitMs === undefined ? {} : { startupWaitMs: options.startupWaitMs },
	});
	harnesses.push(h);
	return h;
}

const script = (code: string, id = "s1") =>
	fauxAssistantMessage(fauxToolCall("codemode", { code }, { id }), { stopReason: "toolUse" });

function toolResultsOf(h: McpHarness) {
	return h.session.messages.flatMap((message) =>
		message.role === "toolResult"
			? [{ message, text: textOfMessage(message), isError: (message as { isError?: boolean }).isError }]
			: [],
	);
}

describe("scripts calling MCP tools (real codemode)", () => {
	it.runIf(realServersInstalled)(
		"server-everything: echo, the tiny image through image() and structured content from one script (skipped without TAU_MCP_SERVERS)",
		async () => {
			const h = await harness({ everything: { command: SERVER_EVERYTHING } }, "codemode");
			expect(h.session.getActiveToolNames()).toContain("codemode");
			h.faux.setResponses([
				script(`
				const echo = await tools.mcp__everything__echo({ message: "from a script" });
				const tiny = await tools.mcp__everything__get_tiny_image({});
				image(tiny.content.find((block) => block.type === "image"));
				const weather = await tools.mcp__everything__get_structured_content({ location: "New York" });
				return { echo: echo.content[0].text, structured: typeof weather.structuredContent };
			`),
				fauxAssistantMessage("done"),
			]);
			await h.session.prompt("go");
			expect(h.declared[0]).toContain("codemode");
			expect(h.declared[0]!.some((name) => name.startsWith("mcp__everything__"))).toBe(false);
			const [result] = toolResultsOf(h);
			expect(result?.isError).toBe(false);
			expect(result?.text).toContain('"structured":"object"');
			expect(result?.text).toMatch(/"echo":"[^"]*from a script/);
			const blocks = (result!.message as { content: { type: string; mimeType?: string }[] }).content;
			expect(blocks.some((block) => block.type === "image" && block.mimeType === "image/png")).toBe(true);
		},
	);

	it("an MCP isError result resolves in the script instead of rejecting", async () => {
		const h = await harness({ s: scripted("--failing", "alpha") }, "codemode");
		h.faux.setResponses([
			script(`
				const failed = await tools.mcp__s__alpha({});
				const fine = await tools.mcp__s__beta({});
				return [failed.isError, failed.content[0].text, fine.isError ?? false, fine.content[0].text];
			`),
			fauxAssistantMessage("done"),
		]);
		await h.session.prompt("go");
		const [result] = toolResultsOf(h);
		expect(result?.isError).toBe(false);
		expect(result?.text).toContain('[true,"alpha failed",false,"beta ran"]');
	});

	it("a script using a discovery global waits for every server, including one still connecting", async () => {
		const gate = join(tempDir("tau-mcp-gate-"), "open");
		// Runs after builtin:mcp's tool_call handler, so it sees what that handler waited for.
		let slowRegisteredWhenAllowed: boolean | undefined;
		const observer = (pi: ExtensionAPI) => {
			pi.on("tool_call", (event) => {
				if (event.toolName === "codemode")
					slowRegisteredWhenAllowed = pi.getAllTools().some((tool) => tool.name.startsWith("mcp__slow__"));
				return undefined;
			});
		};
		const h = await harness({ slow: scripted("--gate", gate), fast: scripted() }, "codemode", {
			startupWaitMs: 50,
			extra: [observer],
		});
		await waitForTools(h, "mcp__fast__");
		h.session.subscribe((event) => {
			if (event.type === "tool_execution_start" && event.toolCallId === "s1") writeFileSync(gate, "");
		});
		h.faux.setResponses([script("return ALL_TOOLS.map((tool) => tool.name)"), fauxAssistantMessage("done")]);
		await h.session.prompt("list everything");
		expect(slowRegisteredWhenAllowed).toBe(true);
		const [result] = toolResultsOf(h);
		expect(result?.isError).toBe(false);
		expect(result?.text).toContain("mcp__slow__alpha");
		expect(result?.text).toContain("mcp__fast__alpha");
	});
});

describe("deferred servers and tool_search (real tool_search)", () => {
	it("loads a tool for the next request of the same run", async () => {
		const h = await harness({ s: { ...scripted(), exposure: "deferred" } }, "tool_search");
		expect(h.session.getActiveToolNames()).toContain("tool_search");
		await waitForTools(h, "mcp__s__");
		h.faux.setResponses([
			fauxAssistantMessage(fauxToolCall("tool_search", { query: "alpha" }, { id: "q1" }), { stopReason: "toolUse" }),
			fauxAssistantMessage(fauxToolCall("mcp__s__alpha", {}, { id: "a1" }), { stopReason: "toolUse" }),
			fauxAssistantMessage("done"),
		]);
		await h.session.prompt("find the alpha tool and use it");
		expect(h.declared[0]).not.toContain("mcp__s__alpha");
		expect(h.declared[1]).toContain("mcp__s__alpha");
		const [search, alpha] = toolResultsOf(h);
		expect(search?.text).toMatch(/Loaded 1 tool\(s\)/);
		expect(alpha).toMatchObject({ isError: false, text: expect.stringContaining("alpha ran") });
	});
});
