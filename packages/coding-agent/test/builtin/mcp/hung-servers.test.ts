/**
 * Servers that hang at initialize, at tools/list and mid-call never hold tau up: prompts do not wait
 * for servers they do not use, Escape ends a hung call, and closing the session (exit, /quit) cancels
 * connects in progress and stops the processes — here with a 10-minute request timeout, so waiting for
 * it would fail the test instead of passing slowly.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMcpExtension } from "../../../src/builtin/mcp/index.js";
import { InteractiveHarness } from "../../interactive/harness.js";
import { tempDir } from "../../support/isolated-session.js";
import {
	createMcpHarness,
	fakeCodemode,
	liveGroupMembers,
	type McpHarness,
	shutdownAndAssertNoProcesses,
	waitForTools,
	writeMcpJson,
} from "./harness.js";

const SCRIPTED = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));
/** A server that logs what it receives, hangs at `stage` and ignores stdin EOF and SIGTERM. */
function hungServer(stage: "initialize" | "list" | "call", log: string, extra: Record<string, unknown> = {}) {
	return {
		command: process.execPath,
		args: [SCRIPTED, "--log", log, "--hang", stage, "--stubborn"],
		timeout: 600,
		...extra,
	};
}
const received = (log: string) => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);

/** A prompt whose (fake) codemode script calls `mcp__good__alpha`, naming no other server. */
async function promptScriptCallingGood(harness: McpHarness): Promise<void> {
	harness.faux.setResponses([
		fauxAssistantMessage(fauxToolCall("codemode", { code: JSON.stringify(["mcp__good__alpha", {}]) }), {
			stopReason: "toolUse",
		}),
		fauxAssistantMessage("done"),
	]);
	await harness.session.prompt("use good");
}

let h: McpHarness | undefined;
afterEach(async () => {
	if (h) await shutdownAndAssertNoProcesses(h);
	h = undefined;
});

describe("servers that hang", () => {
	for (const stage of ["initialize", "list"] as const) {
		it(`closing the session cancels a connect hung at ${stage} and stops the server`, async () => {
			const log = join(tempDir("tau-mcp-hang-"), "log");
			h = await createMcpHarness({ hung: hungServer(stage, log) });
			const method = stage === "initialize" ? "initialize" : "tools/list";
			await vi.waitFor(() => expect(received(log)).toContain(method), { timeout: 15_000 });
			// Resolves without waiting out the 600 s timeout; the afterEach checks that the process is gone.
			await h.session.shutdown();
			expect(h.transports).toHaveLength(1);
		});
	}

	it("a prompt waits neither for a hung server it does not use nor for one its script does not name", async () => {
		const log = join(tempDir("tau-mcp-hang-"), "log");
		const calls: string[] = [];
		h = await createMcpHarness(
			{
				hung: hungServer("initialize", log),
				good: { command: process.execPath, args: [SCRIPTED] },
			},
			{ extraExtensions: [fakeCodemode(calls)] },
		);
		await vi.waitFor(() => expect(received(log)).toContain("initialize"), { timeout: 15_000 });
		h.faux.setResponses([fauxAssistantMessage("no tools needed")]);
		await h.session.prompt("hi");
		await waitForTools(h, "mcp__good__");
		await promptScriptCallingGood(h);
		expect(calls).toEqual(["mcp__good__alpha"]);
		const result = h.session.messages.find((message) => message.role === "toolResult");
		expect(JSON.stringify(result)).toContain("alpha ran");
	});

	it("Escape ends a call hung mid-call; the session then closes at once", async () => {
		const log = join(tempDir("tau-mcp-hang-"), "log");
		h = await createMcpHarness({ hung: hungServer("call", log, { exposure: "direct" }) });
		await waitForTools(h, "mcp__hung__alpha");
		h.faux.setResponses([
			fauxAssistantMessage(fauxToolCall("mcp__hung__alpha", {}, { id: "c1" }), { stopReason: "toolUse" }),
			fauxAssistantMessage("after abort"),
		]);
		const run = h.session.prompt("call it");
		await vi.waitFor(() => expect(received(log)).toContain("tools/call alpha"), { timeout: 15_000 });
		await h.session.abort();
		await run;
		const end = h.events.find((event) => event.type === "tool_execution_end");
		expect(end).toMatchObject({ toolName: "mcp__hung__alpha", isError: true });
		await vi.waitFor(() => expect(received(log)).toContain("notifications/cancelled"));
	});

	it("on demand (-p, --mode json): a prompt that needs no server starts none; a call naming one starts it", async () => {
		const log = join(tempDir("tau-mcp-hang-"), "log");
		const calls: string[] = [];
		h = await createMcpHarness(
			{
				hung: hungServer("initialize", log),
				good: { command: process.execPath, args: [SCRIPTED] },
			},
			{ mcp: { connect: "on-demand" }, extraExtensions: [fakeCodemode(calls)] },
		);
		h.faux.setResponses([fauxAssistantMessage("no tools needed")]);
		await h.session.prompt("hi");
		expect(h.transports).toEqual([]);
		await promptScriptCallingGood(h);
		expect(calls).toEqual(["mcp__good__alpha"]);
		// Only the server the script named was started.
		expect(h.transports).toHaveLength(1);
		expect(received(log)).toEqual([]);
	});
});

describe("/quit with a hung server (interactive)", () => {
	it("quits without waiting for a connect hung at initialize, and the server process is stopped", async () => {
		const dir = tempDir("tau-mcp-quit-");
		const log = join(dir, "log");
		const pidFile = join(dir, "pid");
		const agentDir = tempDir("tau-mcp-quit-agent-");
		writeMcpJson(agentDir, {
			hung: { ...hungServer("initialize", log), args: [...hungServer("initialize", log).args, "--pid", pidFile] },
		});
		const harness = await InteractiveHarness.start({
			loader: { extensionFactories: [createMcpExtension({ agentDir })] },
		});
		try {
			await harness.until(() => received(log).includes("initialize"));
			harness.submit("/quit");
			// Resolves without waiting out the 600 s timeout.
			await harness.exited;
			const pid = Number(readFileSync(pidFile, "utf8"));
			// The stubborn server ignores EOF and SIGTERM: SIGKILL follows within the close timeout.
			await vi.waitFor(() => expect(liveGroupMembers(pid)).toEqual([]), { timeout: 10_000 });
		} finally {
			await harness.close();
		}
	});
});
