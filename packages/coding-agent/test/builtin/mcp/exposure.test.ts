import { fileURLToPath } from "node:url";
import { fauxAssistantMessage } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_SERVERS_SECTION_CHARS, renderServersSection } from "../../../src/builtin/mcp/prompt/servers-section.js";
import {
	createMcpHarness,
	fakeCodemode,
	type McpHarness,
	shutdownAndAssertNoProcesses,
	waitForTools,
} from "./harness.js";

const SCRIPTED = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));
const scripted = (extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [SCRIPTED], ...extra });

/** A stand-in `tool_search` declaring `reachesTools`. */
function fakeToolSearch(pi: ExtensionAPI) {
	pi.registerTool({
		name: "tool_search",
		label: "tool_search",
		description: "Find tools",
		parameters: { type: "object", properties: { query: { type: "string" } } } as never,
		exposure: "model-only",
		defaultActive: false,
		reachesTools: () => "all",
		async execute() {
			return { content: [{ type: "text", text: "none" }], details: undefined };
		},
	});
}

let h: McpHarness | undefined;
afterEach(async () => {
	if (h) await shutdownAndAssertNoProcesses(h);
	h = undefined;
});

const exposures = (harness: McpHarness) =>
	Object.fromEntries(
		harness.session
			.getAllTools()
			.filter((tool) => tool.name.startsWith("mcp__s__"))
			.map((tool) => [tool.name, tool.exposure]),
	);

describe("exposure and activation", () => {
	it("deferred servers activate tool_search, not codemode, and are listed for tool_search", async () => {
		h = await createMcpHarness(
			{ s: scripted({ exposure: "deferred" }) },
			{ extraExtensions: [fakeCodemode(), fakeToolSearch] },
		);
		expect(h.session.getActiveToolNames()).toContain("tool_search");
		expect(h.session.getActiveToolNames()).not.toContain("codemode");
		await waitForTools(h, "mcp__s__");
		expect(exposures(h).mcp__s__alpha).toBe("deferred");
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("hi");
		expect(h.systemTexts[0]).toContain("- mcp__s (tool_search)");
		expect(h.declared[0]).not.toContain("mcp__s__alpha");
	});

	it('"exposure": "hidden" with a toolExposure entry exposes only that tool', async () => {
		h = await createMcpHarness({ s: scripted({ exposure: "hidden", toolExposure: { alpha: "direct" } }) });
		await waitForTools(h, "mcp__s__");
		expect(exposures(h)).toEqual({
			mcp__s__alpha: "direct",
			mcp__s__beta: "hidden",
			mcp__s__toggle_beta: "hidden",
			mcp__s__wipe: "hidden",
		});
		expect(h.session.getActiveToolNames()).toContain("mcp__s__alpha");
	});

	it("autoEnableCodemode: false without tool_search warns once that such tools cannot be called", async () => {
		h = await createMcpHarness(
			{ s: scripted() },
			{ extraExtensions: [fakeCodemode()], mcpFile: { autoEnableCodemode: false } },
		);
		expect(h.session.getActiveToolNames()).not.toContain("codemode");
		const warnings = h.notifications.filter((n) => /cannot be called/.test(n.message));
		expect(warnings).toHaveLength(1);
		expect(warnings[0]!.message).toMatch(/autoEnableCodemode/);
	});
});

describe("mcp_servers section", () => {
	it("over 4096 chars drops servers from the end with an overflow line; empty input removes the section", () => {
		const servers = Array.from({ length: 200 }, (_, i) => ({
			name: `server${String(i).padStart(3, "0")}`,
			namespace: `mcp__server${String(i).padStart(3, "0")}`,
			reach: "codemode" as const,
			description: "A server with a fairly long description that takes room in the section.",
		}));
		const section = renderServersSection(servers)!;
		expect(section.length).toBeLessThanOrEqual(MAX_SERVERS_SECTION_CHARS);
		const overflow = /- … (\d+) more server\(s\); find their tools with searchTools\(\)$/.exec(section);
		expect(overflow).not.toBeNull();
		const listed = section.split("\n").filter((line) => line.startsWith("- mcp__")).length;
		expect(listed + Number(overflow![1])).toBe(200);
		expect(renderServersSection([])).toBeUndefined();
	});

	it("names both reaches in the intro and sorts by name", () => {
		const section = renderServersSection([
			{ name: "b", namespace: "mcp__b", reach: "tool_search" },
			{ name: "a", namespace: "mcp__a", reach: "codemode", instructions: "Use a.\nMore." },
		])!;
		expect(section.split("\n")).toEqual([
			expect.stringMatching(/codemode.*tool_search/),
			"- mcp__a (codemode): Use a.",
			"- mcp__b (tool_search)",
		]);
	});
});
