import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadMcpConfig } from "../../../src/builtin/mcp/config/load-config.js";
import { writeEntryChange } from "../../../src/builtin/mcp/config/update-entry.js";
import { tempDir } from "../../support/isolated-session.js";
import {
	createMcpHarness,
	type McpHarness,
	shutdownAndAssertNoProcesses,
	waitForTools,
	writeMcpJson,
} from "./harness.js";

const SCRIPTED = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));

let h: McpHarness | undefined;
afterEach(async () => {
	if (h) await shutdownAndAssertNoProcesses(h);
	h = undefined;
});

const readJson = (path: string) =>
	JSON.parse(readFileSync(path, "utf8")) as { mcpServers: Record<string, Record<string, unknown>> };

describe("config changes from /mcp", () => {
	it("writes normal entries without default values and overrides with explicit ones", () => {
		const cwd = tempDir("tau-mcp-cwd-");
		const agentDir = tempDir("tau-mcp-agent-");
		const userPath = writeMcpJson(agentDir, { s: { command: "x", exposure: "direct" }, o: { command: "y" } });
		const projectPath = writeMcpJson(join(cwd, ".tau"), { o: { enabled: false } });
		const config = loadMcpConfig({ cwd, agentDir, projectTrusted: true });
		const [s, o] = config.servers;
		expect(writeEntryChange(s!, { field: "exposure", value: "codemode" }, { cwd })).toBe(userPath);
		expect(readJson(userPath).mcpServers.s).toEqual({ command: "x" });
		expect(writeEntryChange(o!, { field: "enabled", value: true }, { cwd })).toBe(projectPath);
		expect(readJson(projectPath).mcpServers.o).toEqual({ enabled: true });
		writeEntryChange(s!, { field: "enabled", value: false }, { cwd, inProject: true });
		expect(readJson(projectPath).mcpServers.s).toEqual({ enabled: false });
		expect(readJson(userPath).mcpServers.s).toEqual({ command: "x" });
	});

	it("/mcp disable, enable and exposure change the file and the session's tools", async () => {
		h = await createMcpHarness({ s: { command: process.execPath, args: [SCRIPTED] } });
		await waitForTools(h, "mcp__s__");
		const userPath = join(h.mcpAgentDir, "mcp.json");
		const exposureOf = () => h!.session.getAllTools().find((tool) => tool.name === "mcp__s__alpha")?.exposure;
		await h.session.prompt("/mcp exposure s direct");
		expect(readJson(userPath).mcpServers.s).toMatchObject({ exposure: "direct" });
		await vi.waitFor(() => expect(exposureOf()).toBe("direct"));
		expect(h.session.getActiveToolNames()).toContain("mcp__s__alpha");
		await h.session.prompt("/mcp disable s");
		expect(readJson(userPath).mcpServers.s).toMatchObject({ enabled: false });
		expect(exposureOf()).toBe("hidden");
		expect(h.session.getActiveToolNames()).not.toContain("mcp__s__alpha");
		await h.session.prompt("/mcp enable s");
		expect(readJson(userPath).mcpServers.s).not.toHaveProperty("enabled");
		await vi.waitFor(() => expect(exposureOf()).toBe("direct"));
		expect(h.notifications.map((n) => n.message)).toContainEqual(expect.stringMatching(/^s: enabled = true/));
	});
});
