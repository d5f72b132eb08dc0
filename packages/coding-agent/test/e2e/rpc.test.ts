import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { RpcClient } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, cliBuilt, collectRun, mockServer, runCli, type Sandbox, sandbox, writeMockModels } from "./harness.js";

const clients: RpcClient[] = [];
afterEach(async () => {
	for (const client of clients.splice(0)) await client.stop();
});

function client(box: Sandbox, args: string[] = ["--no-session"]): RpcClient {
	const rpc = new RpcClient({ cliPath: CLI, cwd: box.project, env: box.env as Record<string, string>, args });
	clients.push(rpc);
	return rpc;
}

function requestText(body: unknown): string {
	return JSON.stringify((body as { messages?: unknown }).messages ?? body);
}

/** A raw child speaking JSONL, for exchanges the client library hides (malformed lines, stdin close). */
function rawChild(box: Sandbox, args: string[] = []) {
	const child = spawn(process.execPath, [CLI, "--mode", "rpc", "--no-session", ...args], {
		cwd: box.project,
		env: box.env,
		stdio: ["pipe", "pipe", "pipe"],
	});
	const result = collectRun(child);
	const lines: Record<string, unknown>[] = [];
	let buffer = "";
	const waiters: (() => void)[] = [];
	child.stdout.on("data", (chunk: Buffer) => {
		buffer += chunk.toString("utf8");
		let newline = buffer.indexOf("\n");
		while (newline >= 0) {
			lines.push(JSON.parse(buffer.slice(0, newline)));
			buffer = buffer.slice(newline + 1);
			newline = buffer.indexOf("\n");
		}
		for (const wake of waiters.splice(0)) wake();
	});
	const waitFor = async (predicate: (record: Record<string, unknown>) => boolean) => {
		for (;;) {
			const found = lines.find(predicate);
			if (found) return found;
			await new Promise<void>((resolve) => waiters.push(resolve));
		}
	};
	return { child, lines, waitFor, result };
}

describe.skipIf(!cliBuilt)("RPC mode (built CLI)", () => {
	it("drives a session with steering and follow-up through RpcClient", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		let release!: () => void;
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		server.enqueue(
			async () => {
				await held;
				return { toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo tool-ran" } }] };
			},
			{ text: "steered answer" },
			{ text: "follow-up answer" },
		);
		const rpc = client(box);
		await rpc.start();
		const state = await rpc.getState();
		expect(state.model?.id).toBe("mock-model");
		expect(state).not.toHaveProperty("sessionFile");

		const seenByFirst: string[] = [];
		const seenBySecond: string[] = [];
		const offFirst = rpc.onEvent((event) => {
			seenByFirst.push(event.type);
			offFirst();
		});
		rpc.onEvent((event) => seenBySecond.push(event.type));
		const settled = rpc.collectEvents();
		expect(await rpc.prompt("start working")).toBe("started");
		await server.waitForRequest(0);
		expect(await rpc.steer("steer message")).toBe("queued");
		expect(await rpc.followUp("follow-up message")).toBe("queued");
		release();
		const events = await settled;
		expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
		// The first listener unsubscribed while handling a record; the next one still got that record.
		expect(seenByFirst).toHaveLength(1);
		expect(seenBySecond[0]).toBe(seenByFirst[0]);
		expect(seenBySecond).toEqual(events.map((event) => event.type));
		expect(server.requests).toHaveLength(3);
		expect(requestText(server.requests[1]!.body)).toContain("steer message");
		expect(requestText(server.requests[1]!.body)).toContain("tool-ran");
		expect(requestText(server.requests[2]!.body)).toContain("follow-up message");
		expect(await rpc.getLastAssistantText()).toBe("follow-up answer");
	});

	it("abort stops a stalled run (agent_settled aborted:true); a prompt while streaming makes promptAndWait reject", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "never finished", fault: { kind: "stall", afterEvents: 2 } });
		const rpc = client(box);
		await rpc.start();
		const settled = rpc.collectEvents();
		expect(await rpc.prompt("hang")).toBe("started");
		await server.waitForRequest(0);
		await expect(rpc.promptAndWait("second prompt while streaming")).rejects.toThrow(
			"Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.",
		);
		await rpc.abort();
		const events = await settled;
		expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: true });
		expect((await rpc.getState()).isStreaming).toBe(false);
	});

	it("promptAndWait returns the run's events, ending with agent_settled", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "waited answer" });
		const rpc = client(box);
		await rpc.start();
		const events = await rpc.promptAndWait("hello");
		expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
		const types = events.map((event) => event.type);
		expect(types).toContain("agent_start");
		expect(types.indexOf("agent_end")).toBeLessThan(types.indexOf("agent_settled"));
		expect(JSON.stringify(events)).toContain("waited answer");
		expect(await rpc.getLastAssistantText()).toBe("waited answer");
	});

	it("promptAndWait resolves at once for a prompt handled by an extension command", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const extension = join(box.home, "ext.mjs");
		writeFileSync(
			extension,
			`export default function (pi) {
	pi.registerCommand("ping", { handler: async (_args, ctx) => { ctx.ui.notify("pong"); } });
	pi.registerCommand("ask", { handler: async (_args, ctx) => {
		const ok = await ctx.ui.confirm("Proceed?", "Really");
		ctx.ui.notify(ok ? "confirmed" : "declined");
	} });
	pi.on("session_start", () => { console.log("stray console output"); });
}
`,
		);
		const rpc = client(box, ["--no-session", "-e", extension]);
		const requests: { method: string; id: string; message?: string }[] = [];
		rpc.onExtensionUIRequest((request) => {
			requests.push(request as never);
			if (request.method === "confirm")
				rpc.respondToExtensionUI({ type: "extension_ui_response", id: request.id, confirmed: true });
		});
		await rpc.start();
		const events = await rpc.promptAndWait("/ping");
		expect(events.some((event) => event.type === "agent_start")).toBe(false);
		expect(requests.map((r) => r.message)).toContain("pong");
		await rpc.promptAndWait("/ask");
		expect(requests.map((r) => r.message)).toContain("confirmed");
		expect(server.requests).toHaveLength(0);
		expect(rpc.getStderr()).toContain("stray console output");
	});

	it("failed commands reject with the server error; a crashed child rejects with its exit", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const rpc = client(box);
		await rpc.start();
		await expect(rpc.setModel("nope", "x")).rejects.toThrow("Model not found: nope/x");
		await expect(rpc.compact()).rejects.toThrow(/Nothing to compact/);
		const box2 = sandbox();
		const crashing = client(box2, ["--no-session", "--frob-unknown"]);
		// Startup may outlive the 100 ms grace period; the first request then sees the exit.
		const request = crashing.start().then(() => crashing.getState());
		await expect(request).rejects.toThrow(/^Agent process exited \(code=1 signal=null\)\. Stderr: .*Unknown option/s);
	});

	it("answers a malformed line with a parse error, keeps running, and exits 0 when stdin closes", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const raw = rawChild(box);
		raw.child.stdin.write('{"id":"s","type":"get_state"}\n');
		await raw.waitFor((r) => r.id === "s");
		raw.child.stdin.write("{not json\n");
		const parse = await raw.waitFor((r) => r.command === "parse");
		expect(parse.success).toBe(false);
		expect(parse).not.toHaveProperty("id");
		expect(String(parse.error)).toMatch(/^Failed to parse command: /);
		raw.child.stdin.write('{"id":"after","type":"get_state"}\r\n');
		expect((await raw.waitFor((r) => r.id === "after")).success).toBe(true);
		raw.child.stdin.end('{"id":"tail","type":"get_state"}');
		const result = await raw.result;
		expect(result.code).toBe(0);
		expect(raw.lines.find((r) => r.id === "tail")?.success).toBe(true);
		for (const line of result.stdout.split("\n").filter((l) => l !== ""))
			expect(() => JSON.parse(line)).not.toThrow();
	});

	it("rejects @file arguments with an error on stderr and nothing on stdout", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		writeFileSync(join(box.project, "x.md"), "text");
		const result = await runCli(box, ["--mode", "rpc", "@x.md"], { stdin: "" });
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr).toContain("Error: @file arguments are not supported in RPC mode");
	});

	it("SIGTERM exits 143 after running session_shutdown handlers", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const marker = join(box.home, "shutdown.txt");
		const extension = join(box.home, "shutdown-ext.mjs");
		writeFileSync(
			extension,
			`import { writeFileSync } from "node:fs";
export default function (pi) { pi.on("session_shutdown", () => { writeFileSync(${JSON.stringify(marker)}, "done"); }); }
`,
		);
		const child = spawn(process.execPath, [CLI, "--mode", "rpc", "--no-session", "-e", extension], {
			cwd: box.project,
			env: box.env,
			stdio: ["pipe", "pipe", "pipe"],
		});
		const result = collectRun(child);
		const ready = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
		child.stdin.write('{"type":"get_state"}\n');
		await ready;
		child.kill("SIGTERM");
		const { code } = await result;
		expect(code).toBe(143);
		const { readFileSync } = await import("node:fs");
		expect(readFileSync(marker, "utf8")).toBe("done");
	});

	it("SIGHUP exits 129; SIGTERM with stdin closed at once runs session_shutdown exactly once", async () => {
		for (const [signal, expected, closeStdin] of [
			["SIGHUP", 129, false],
			["SIGTERM", 143, true],
		] as const) {
			const box = sandbox();
			const server = await mockServer();
			writeMockModels(box, server);
			const marker = join(box.home, "shutdowns.txt");
			const extension = join(box.home, "count-ext.mjs");
			writeFileSync(
				extension,
				`import { appendFileSync } from "node:fs";
export default function (pi) { pi.on("session_shutdown", () => { appendFileSync(${JSON.stringify(marker)}, "x"); }); }
`,
			);
			const raw = rawChild(box, ["-e", extension]);
			raw.child.stdin.write('{"id":"s","type":"get_state"}\n');
			await raw.waitFor((r) => r.id === "s");
			raw.child.kill(signal);
			if (closeStdin) raw.child.stdin.end();
			const { code } = await raw.result;
			// With stdin closed as well, whichever trigger arrives first decides the code; the other one
			// neither cuts the shutdown short nor runs it twice.
			if (closeStdin) expect([0, expected]).toContain(code);
			else expect(code).toBe(expected);
			const { readFileSync } = await import("node:fs");
			expect(readFileSync(marker, "utf8")).toBe("x");
		}
	});

	it("a second SIGTERM during a slow shutdown exits immediately", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const extension = join(box.home, "slow-ext.mjs");
		writeFileSync(
			extension,
			`export default function (pi) {
	pi.on("session_shutdown", async () => {
		console.error("shutdown-started");
		await new Promise(() => setInterval(() => {}, 1000));
	});
}
`,
		);
		const raw = rawChild(box, ["-e", extension]);
		raw.child.stdin.write('{"id":"s","type":"get_state"}\n');
		await raw.waitFor((r) => r.id === "s");
		// Accumulated: the marker may arrive split across chunks.
		let stderr = "";
		const started = new Promise<void>((resolve) =>
			raw.child.stderr.on("data", (chunk: Buffer | string) => {
				stderr += chunk.toString();
				if (stderr.includes("shutdown-started")) resolve();
			}),
		);
		raw.child.kill("SIGTERM");
		await started;
		raw.child.kill("SIGTERM");
		expect((await raw.result).code).toBe(143);
	});

	it("keeps stdout protocol-only when an extension writes to console.log", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const extension = join(box.home, "noisy-ext.mjs");
		writeFileSync(
			extension,
			`export default function (pi) {
	pi.on("session_start", () => { console.log("noise at start"); });
	pi.registerCommand("noise", { handler: async () => { console.log("noise from command"); process.stdout.write("raw noise\\n"); } });
}
`,
		);
		const raw = rawChild(box, ["-e", extension]);
		raw.child.stdin.write('{"id":"n","type":"prompt","message":"/noise"}\n');
		await raw.waitFor((r) => r.id === "n");
		raw.child.stdin.end();
		const result = await raw.result;
		expect(result.code).toBe(0);
		for (const line of result.stdout.split("\n").filter((l) => l !== ""))
			expect(() => JSON.parse(line)).not.toThrow();
		expect(result.stdout).not.toContain("noise");
		expect(result.stderr).toContain("noise at start");
		expect(result.stderr).toContain("noise from command");
		expect(result.stderr).toContain("raw noise");
	});
});
