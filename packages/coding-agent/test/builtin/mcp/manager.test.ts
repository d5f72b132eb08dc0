/**
 * `/mcp` in the TUI is an interactive manager: servers with state, tools and exposure, most urgent
 * first; a server's screen shows why it failed (exit code, its own stderr) and offers reconnect,
 * tools, exposure, enable/disable; changes are written to the mcp.json that defines the server.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpExtension } from "../../../src/builtin/mcp/index.js";
import { InteractiveHarness, KEYS } from "../../interactive/harness.js";
import { tempDir } from "../../support/isolated-session.js";
import { writeMcpJson } from "./harness.js";

const SCRIPTED = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));

let harness: InteractiveHarness | undefined;
afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

async function startWithServers(servers: Record<string, unknown>): Promise<{ h: InteractiveHarness; file: string }> {
	const agentDir = tempDir("tau-mcp-manager-");
	const file = writeMcpJson(agentDir, servers);
	const h = await InteractiveHarness.start({
		loader: { extensionFactories: [createMcpExtension({ agentDir })] },
		rows: 50,
	});
	harness = h;
	return { h, file };
}

const press = async (h: InteractiveHarness, ...keys: string[]) => {
	for (const key of keys) {
		h.terminal.press(key);
		await h.settleMicrotasks(2);
	}
};

describe("/mcp manager (TUI)", () => {
	it("lists servers by urgency with state, tools and exposure; a failed server shows its exit code and stderr", async () => {
		const { h } = await startWithServers({
			good: { command: process.execPath, args: [SCRIPTED], exposure: "direct" },
			broken: {
				command: process.execPath,
				args: [SCRIPTED, "--stderr", "Fatal: DATABASE_URL is not set", "--exit", "3"],
			},
			off: { command: process.execPath, args: [SCRIPTED], enabled: false },
		});
		await h.until(async () => (await h.screen()).includes("MCP servers need attention"));
		h.submit("/mcp");
		await h.until(async () => /good\s+connected, 4 tools · direct · user/.test(await h.screen()));
		const list = await h.screen();
		const order = ["broken ", "good ", "off "].map((name) => list.lastIndexOf(`  ${name}`));
		expect(order).toEqual([...order].sort((a, b) => a - b));
		expect(list).toContain("failed: MCP connection closed: the server exited with code 3 · codemode · user");
		expect(list).toMatch(/off\s+disabled · codemode · user/);
		await press(h, KEYS.enter);
		const details = await h.screen();
		expect(details).toContain("MCP server broken");
		expect(details).toContain("Fatal: DATABASE_URL is not set");
		expect(details).toMatch(/→ Reconnect/);
		await press(h, KEYS.escape, KEYS.escape);
		expect(await h.screen()).not.toContain("Enter manage");
	}, 60_000);

	it("shows a server's tools, changes its exposure and disables it, writing the defining mcp.json", async () => {
		const { h, file } = await startWithServers({
			good: { command: process.execPath, args: [SCRIPTED], toolExposure: { wipe: "hidden" } },
		});
		h.submit("/mcp");
		await h.until(async () => (await h.screen()).includes("connected, 4 tools"));
		await press(h, KEYS.enter);
		expect(await h.screen()).toContain("→ Tools");
		await press(h, KEYS.enter);
		const tools = await h.screen();
		expect(tools).toContain("Tools of good");
		expect(tools).toContain("[hidden] Deletes everything");
		expect(tools).toMatch(/alpha\s+Alpha tool/);
		// Back to the server, then Exposure (Tools, Reconnect, Sign out absent for stdio, Exposure).
		await press(h, KEYS.escape, KEYS.down, KEYS.down, KEYS.enter);
		expect(await h.screen()).toContain("Exposure of good");
		await press(h, KEYS.down, KEYS.enter);
		await h.until(
			() =>
				(JSON.parse(readFileSync(file, "utf8")) as { mcpServers: { good: { exposure?: string } } }).mcpServers.good
					.exposure === "deferred",
		);
		await h.until(async () => (await h.screen()).includes("good: exposure = deferred"));
		// The cursor stays on Exposure; Disable is the next item.
		await press(h, KEYS.down, KEYS.enter);
		await h.until(
			() =>
				(JSON.parse(readFileSync(file, "utf8")) as { mcpServers: { good: { enabled?: boolean } } }).mcpServers.good
					.enabled === false,
		);
		await h.until(async () => (await h.screen()).includes("State: disabled"));
		expect(await h.screen()).toMatch(/Enable\s+saved to/);
	}, 60_000);
});
