import { execFile, spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { McpClient, McpConnectionClosedError, StdioTransport } from "@tau/mcp";
import { afterEach, describe, expect, it, vi } from "vitest";
import { liveGroupMembers, waitForGroupGone } from "./support/processes.js";

const fixture = fileURLToPath(new URL("./fixtures/stdio-server.mjs", import.meta.url));
const posix = process.platform !== "win32";
const hasNpx = spawnSync("npx", ["--version"], { stdio: "ignore" }).status === 0;
// The real servers ./test.sh installs (scripts/mcp-test-servers.mjs) into <prefix>/node_modules/.bin.
const serversBin = process.env.TAU_MCP_SERVERS ?? "";
const serversPrefix = serversBin === "" ? "" : resolve(serversBin, "../..");
const started: StdioTransport[] = [];

function transport(mode: string, closeTimeoutMs = 2000): StdioTransport {
	const t = new StdioTransport({ command: process.execPath, args: [fixture, mode], closeTimeoutMs });
	started.push(t);
	return t;
}

/** Resolves once the fixture printed `fixture ready` (so its signal handlers are installed). */
function ready(t: StdioTransport): Promise<void> {
	return vi.waitFor(() => expect(t.stderr).toContain("fixture ready"), { timeout: 10_000 });
}

afterEach(async () => {
	const groups = started.splice(0).map((t) => t.pid);
	// Teardown asserts that no server process or descendant outlived its test.
	for (const pgid of groups) if (pgid !== undefined && posix) expect(await waitForGroupGone(pgid)).toEqual([]);
});

describe("StdioTransport", () => {
	it("connects a client, calls a tool and closes the process", async () => {
		const t = transport("normal");
		const client = new McpClient({ name: "tau", version: "1" });
		await client.connect(t);
		expect(await client.listTools()).toEqual([{ name: "echo", inputSchema: { type: "object" } }]);
		expect(await client.callTool("echo", { a: 1 })).toEqual({ content: [{ type: "text", text: '{"a":1}' }] });
		expect(t.pid).toBeGreaterThan(0);
		await client.close();
	});

	it("rejects start() on a missing command and a second start()", async () => {
		const missing = new StdioTransport({ command: "/nonexistent/tau-mcp-server" });
		await expect(missing.start()).rejects.toMatchObject({ code: "ENOENT" });
		const t = transport("normal");
		await t.start();
		await expect(t.start()).rejects.toThrow(/already started/);
		await t.close();
		await expect(t.send({ jsonrpc: "2.0", method: "x" })).rejects.toBeInstanceOf(McpConnectionClosedError);
	});

	it("a server crashing mid-call rejects the pending call and fires onClose once", async () => {
		const t = transport("crash");
		const client = new McpClient({ name: "tau", version: "1" });
		const onClose = vi.fn();
		client.onClose(onClose);
		await client.connect(t);
		await expect(client.callTool("echo", {})).rejects.toBeInstanceOf(McpConnectionClosedError);
		expect(onClose).toHaveBeenCalledOnce();
		// How it ended, for the failure reason tau shows.
		expect(t.exit).toEqual({ code: 3, signal: null });
		await client.close();
		expect(onClose).toHaveBeenCalledOnce();
	});

	it.runIf(posix)("kills a group whose server and grandchild ignore EOF and SIGTERM", async () => {
		const t = transport("stubborn", 300);
		await t.start();
		await ready(t);
		const pgid = t.pid!;
		expect(liveGroupMembers(pgid).length).toBe(2);
		await t.close();
		expect(await waitForGroupGone(pgid)).toEqual([]);
	});

	it.runIf(posix)("kills a grandchild left behind by a server that exited early", async () => {
		const t = transport("orphan");
		const client = new McpClient({ name: "tau", version: "1" });
		const closed = new Promise<void>((resolve) => client.onClose(resolve));
		await client.connect(t);
		await closed;
		await client.close();
		expect(await waitForGroupGone(t.pid!)).toEqual([]);
	});

	for (const mode of ["exit", "release"] as const) {
		it.runIf(posix)(
			mode === "exit"
				? "a host exiting without close() leaves no group behind: SIGTERM at exit, SIGKILL after the close timeout"
				: "release() lets the host exit while a stubborn server is still closing; the server is still killed",
			async () => {
				const jiti = fileURLToPath(new URL("../../../node_modules/.bin/jiti", import.meta.url));
				const host = fileURLToPath(new URL("./fixtures/host-exit.ts", import.meta.url));
				// Resolves once the host exited: nothing left holds its event loop.
				const { stdout } = await promisify(execFile)(jiti, [host, mode]);
				const pgid = Number(stdout.trim());
				expect(pgid).toBeGreaterThan(0);
				// The server ignores EOF and SIGTERM (its `sleep` child does not): only the reaper's SIGKILL ends it.
				expect(await waitForGroupGone(pgid)).toEqual([]);
			},
		);
	}

	it.runIf(posix && hasNpx && serversPrefix !== "")(
		"an npx-wrapped server leaves no descendants after close() (skipped without npx on PATH or TAU_MCP_SERVERS)",
		async () => {
			const t = new StdioTransport({
				command: "npx",
				args: ["--no-install", "mcp-server-everything"],
				cwd: serversPrefix,
			});
			started.push(t);
			const client = new McpClient({ name: "tau", version: "1" });
			await client.connect(t);
			// npx runs the server as a child: the group holds more than the direct child.
			expect(liveGroupMembers(t.pid!).length).toBeGreaterThanOrEqual(2);
			await client.close();
			expect(await waitForGroupGone(t.pid!)).toEqual([]);
		},
	);

	it("keeps a bounded stderr tail", async () => {
		const t = new StdioTransport({ command: process.execPath, args: [fixture, "normal"], maxStderrBytes: 5 });
		started.push(t);
		await t.start();
		// A node process can take over a second to start on a loaded machine.
		await vi.waitFor(() => expect(t.stderr).toBe("eady\n"), { timeout: 10_000 });
		await t.close();
	});
});
