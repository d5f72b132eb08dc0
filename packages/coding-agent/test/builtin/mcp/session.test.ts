import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempDir } from "../../support/isolated-session.js";
import {
	createMcpHarness,
	fakeCodemode,
	type McpHarness,
	shutdownAndAssertNoProcesses,
	waitForTools,
} from "./harness.js";

const SCRIPTED = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));
const scripted = (...args: string[]) => ({ command: process.execPath, args: [SCRIPTED, ...args] });

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
						text: JSON.stringify((event.result as { content: unknown }).content),
					},
				]
			: [],
	);
}

const call = (name: string, id: string, args: Record<string, string> = {}) =>
	fauxAssistantMessage(fauxToolCall(name, args, { id }), { stopReason: "toolUse" });

describe("builtin:mcp session behaviour (scripted server)", () => {
	it("a server crashing mid-call: the call fails, is not retried, the next call respawns and succeeds", async () => {
		const dir = tempDir("tau-mcp-crash-");
		const log = join(dir, "calls.log");
		h = await createMcpHarness({
			s: { ...scripted("--log", log, "--crash-once", join(dir, "crashed")), exposure: "direct" },
		});
		await waitForTools(h, "mcp__s__alpha");
		h.faux.setResponses([
			call("mcp__s__alpha", "c1"),
			fauxAssistantMessage("a"),
			call("mcp__s__alpha", "c2"),
			fauxAssistantMessage("b"),
		]);
		await h.session.prompt("first");
		expect(results(h)[0]).toMatchObject({ isError: true, text: expect.stringMatching(/closed/i) });
		const readCalls = () =>
			readFileSync(log, "utf8")
				.split("\n")
				.filter((line) => line === "tools/call alpha");
		expect(readCalls()).toHaveLength(1);
		await h.session.prompt("second");
		expect(results(h)[1]).toMatchObject({ isError: false, text: expect.stringContaining("alpha ran") });
		expect(readCalls()).toHaveLength(2);
		expect(h.transports).toHaveLength(2);
	});

	it("list_changed: a withdrawn tool becomes hidden and reports 'no longer available'; re-added it works under the same name", async () => {
		h = await createMcpHarness({ s: { ...scripted(), exposure: "direct" } });
		await waitForTools(h, "mcp__s__beta");
		h.faux.setResponses([call("mcp__s__toggle_beta", "t1"), fauxAssistantMessage("ok")]);
		await h.session.prompt("toggle");
		await vi.waitFor(() =>
			expect(h!.session.getAllTools().find((t) => t.name === "mcp__s__beta")?.exposure).toBe("hidden"),
		);
		expect(h.session.getActiveToolNames()).not.toContain("mcp__s__beta");
		h.faux.setResponses([call("mcp__s__toggle_beta", "t2"), fauxAssistantMessage("ok")]);
		await h.session.prompt("toggle again");
		await vi.waitFor(() =>
			expect(h!.session.getAllTools().find((t) => t.name === "mcp__s__beta")?.exposure).toBe("direct"),
		);
		h.faux.setResponses([call("mcp__s__beta", "b1"), fauxAssistantMessage("ok")]);
		await h.session.prompt("beta");
		expect(results(h).at(-1)).toMatchObject({
			toolName: "mcp__s__beta",
			isError: false,
			text: expect.stringContaining("beta ran"),
		});
	});

	it("startup wait: a direct server still connecting after startupWaitMs lets the prompt proceed with a notice; tools appear later", async () => {
		const dir = tempDir("tau-mcp-gate-");
		const gate = join(dir, "open");
		h = await createMcpHarness(
			{ slow: { ...scripted("--gate", gate), exposure: "direct" } },
			{ mcp: { startupWaitMs: 200 } },
		);
		h.faux.setResponses([fauxAssistantMessage("first"), fauxAssistantMessage("second")]);
		await h.session.prompt("one");
		expect(h.notifications).toContainEqual({ message: expect.stringMatching(/still connecting/), type: "info" });
		expect(h.declared[0]!.some((name) => name.startsWith("mcp__slow__"))).toBe(false);
		writeFileSync(gate, "");
		await waitForTools(h, "mcp__slow__");
		await h.session.prompt("two");
		expect(h.declared[1]).toContain("mcp__slow__alpha");
	});

	it("a hanging codemode server blocks no prompt; a script naming it waits only for it; abort ends the wait", async () => {
		const dir = tempDir("tau-mcp-gate-");
		const gate = join(dir, "open");
		const calls: string[] = [];
		h = await createMcpHarness(
			{ slow: scripted("--gate", gate), fast: scripted() },
			{ mcp: { startupWaitMs: 50 }, extraExtensions: [fakeCodemode(calls)] },
		);
		await waitForTools(h, "mcp__fast__");
		h.faux.setResponses([
			call("codemode", "s1", { code: JSON.stringify(["mcp__fast__alpha", {}]) }),
			fauxAssistantMessage("done"),
		]);
		await h.session.prompt("fast only");
		const scriptResults = () => results(h!).filter((result) => result.toolName === "codemode");
		expect(scriptResults()[0]).toMatchObject({ isError: false, text: expect.stringContaining("alpha ran") });
		// A script naming the hanging server waits until the user aborts.
		h.faux.setResponses([
			call("codemode", "s2", { code: JSON.stringify(["mcp__slow__alpha", {}]) }),
			fauxAssistantMessage("done"),
		]);
		const aborted = h.session.prompt("slow");
		await vi.waitFor(() =>
			expect(h!.events.some((e) => e.type === "tool_execution_start" && e.toolCallId === "s2")).toBe(true),
		);
		await h.session.abort();
		await aborted;
		expect(calls).toEqual(["mcp__fast__alpha"]);
		// Once the server answers, the same script runs.
		writeFileSync(gate, "");
		h.faux.setResponses([
			call("codemode", "s3", { code: JSON.stringify(["mcp__slow__alpha", {}]) }),
			fauxAssistantMessage("done"),
		]);
		await h.session.prompt("slow again");
		expect(scriptResults().at(-1)).toMatchObject({ isError: false, text: expect.stringContaining("alpha ran") });
	});

	it("instructions reach the mcp_servers section; the section budget keeps summaries ≤ 250 chars", async () => {
		const long = "L".repeat(400);
		h = await createMcpHarness(
			{ docs: scripted("--instructions", `Docs helper.\nMore`), big: { ...scripted(), description: long } },
			{ extraExtensions: [fakeCodemode()] },
		);
		await waitForTools(h, "mcp__docs__");
		await waitForTools(h, "mcp__big__");
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("hi");
		expect(h.systemTexts[0]).toContain("- mcp__docs (codemode): Docs helper.");
		const line = h.systemTexts[0]!.match(/- mcp__big \(codemode\): (L+…)/);
		expect(line?.[1]?.length).toBeLessThanOrEqual(250);
	});

	it("instructions arriving after connect are appended as a section patch; earlier system bytes are unchanged", async () => {
		const dir = tempDir("tau-mcp-gate-");
		const gate = join(dir, "open");
		h = await createMcpHarness(
			{ docs: scripted("--gate", gate, "--instructions", "Docs helper.") },
			{ extraExtensions: [fakeCodemode()] },
		);
		h.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await h.session.prompt("first");
		expect(h.systemTexts[0]).toContain("- mcp__docs (codemode)");
		expect(h.systemTexts[0]).not.toContain("Docs helper.");
		writeFileSync(gate, "");
		await waitForTools(h, "mcp__docs__");
		await h.session.prompt("second");
		const before = JSON.parse(h.systemTexts[0]!) as unknown[];
		const after = JSON.parse(h.systemTexts[1]!) as unknown[];
		expect(after.slice(0, before.length)).toEqual(before);
		expect(after.length).toBe(before.length + 1);
		expect(JSON.stringify(after.at(-1))).toContain("- mcp__docs (codemode): Docs helper.");
	});

	it("a tool_call handler blocking destructiveHint tools blocks direct and script calls", async () => {
		const calls: string[] = [];
		const policy = (pi: ExtensionAPI) => {
			pi.on("tool_call", (event) => {
				const info = pi.getAllTools().find((tool) => tool.name === event.toolName);
				return info?.annotations?.destructiveHint
					? { block: true, reason: "destructive tools are blocked" }
					: undefined;
			});
		};
		h = await createMcpHarness(
			{ s: { ...scripted(), toolExposure: { wipe: "direct" } } },
			{ extraExtensions: [fakeCodemode(calls), policy] },
		);
		await waitForTools(h, "mcp__s__wipe");
		expect(h.session.getAllTools().find((tool) => tool.name === "mcp__s__wipe")?.annotations).toEqual({
			destructiveHint: true,
		});
		h.faux.setResponses([
			call("mcp__s__wipe", "d1"),
			call("codemode", "d2", { code: JSON.stringify(["mcp__s__wipe", {}]) }),
			fauxAssistantMessage("done"),
		]);
		await h.session.prompt("wipe");
		const [direct, script] = results(h);
		expect(direct).toMatchObject({ isError: true, text: expect.stringContaining("destructive tools are blocked") });
		expect(script!.text).toContain("destructive tools are blocked");
	});

	it("registerMcpServer: registered at load time connects at start; later registration connects immediately", async () => {
		let api: ExtensionAPI | undefined;
		h = await createMcpHarness(
			{},
			{
				extraExtensions: [
					(pi) => {
						api = pi;
						pi.registerMcpServer("early", { ...scripted(), exposure: "direct" });
					},
				],
			},
		);
		await waitForTools(h, "mcp__early__alpha");
		api!.registerMcpServer("late", { ...scripted(), exposure: "direct" });
		await waitForTools(h, "mcp__late__alpha");
		expect(() => api!.registerMcpServer("broken", {})).toThrow(/command.*url/);
		// Unregistering closes the server and hides its tools (tools cannot be unregistered).
		api!.unregisterMcpServer("late");
		await vi.waitFor(() =>
			expect(h!.session.getAllTools().find((t) => t.name === "mcp__late__alpha")?.exposure).toBe("hidden"),
		);
		expect(h.session.getActiveToolNames()).not.toContain("mcp__late__alpha");
		expect(existsSync(h.mcpAgentDir)).toBe(true);
	});

	it("registerMcpServer after a start with no mcp.json and no registration still connects the server", async () => {
		let api: ExtensionAPI | undefined;
		h = await createMcpHarness(
			{},
			{
				// An agent dir without mcp.json: the session starts with nothing that names a server.
				mcp: { agentDir: tempDir("tau-mcp-empty-agent-") },
				extraExtensions: [
					(pi) => {
						api = pi;
					},
				],
			},
		);
		expect(h.transports).toEqual([]);
		api!.registerMcpServer("late", { ...scripted(), exposure: "direct" });
		await waitForTools(h, "mcp__late__alpha");
		expect(h.session.getActiveToolNames()).toContain("mcp__late__alpha");
	});
});
