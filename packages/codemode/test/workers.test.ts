import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { failure, okValue, sandbox, tool } from "./helpers.js";

describe("worker per execution", () => {
	it("starts a fresh VM for every run", async () => {
		const s = sandbox();
		expect(okValue(await s.execute("globalThis.leak = 1; return typeof leak"))).toBe("number");
		expect(okValue(await s.execute("return typeof globalThis.leak"))).toBe("undefined");
	});

	it("calls acquireWorker before each worker and releases exactly once on exit", async () => {
		let acquired = 0;
		let released = 0;
		const exits: Promise<void>[] = [];
		const s = sandbox({
			acquireWorker: () => {
				acquired++;
				let done = false;
				return () => {
					expect(done).toBe(false);
					done = true;
					released++;
				};
			},
			onWorkerStarted: (exited) => exits.push(exited),
		});
		await s.execute("return 1");
		await s.execute("throw new Error('x')");
		await s.execute("while (true) {}", { timeoutMs: 100 });
		expect(acquired).toBe(3);
		expect(exits).toHaveLength(3);
		await Promise.all(exits);
		expect(released).toBe(3);
	});

	it("releases at once when worker construction fails", async () => {
		let released = 0;
		const s = sandbox({ workerUrl: "relative-path-not-allowed.js", acquireWorker: () => () => released++ });
		const error = failure(await s.execute("return 1"));
		expect(error.kind).toBe("sandbox");
		expect(released).toBe(1);
	});

	it("fails as sandbox without a worker when acquireWorker throws", async () => {
		let started = 0;
		const s = sandbox({
			acquireWorker: () => {
				throw new Error("no capacity");
			},
			onWorkerStarted: () => started++,
		});
		expect(failure(await s.execute("return 1"))).toEqual({ kind: "sandbox", message: "no capacity" });
		expect(started).toBe(0);
	});

	it("fails and stops the worker when onWorkerStarted throws", async () => {
		let exited: Promise<void> | undefined;
		const s = sandbox({
			onWorkerStarted: (e) => {
				exited = e;
				throw new Error("observer broke");
			},
		});
		expect(failure(await s.execute("return 1"))).toEqual({ kind: "sandbox", message: "observer broke" });
		await exited;
	});

	it("reports a missing worker file and a worker that exits early as sandbox failures", async () => {
		const missing = failure(
			await sandbox({ workerUrl: new URL("file:///nonexistent/codemode-worker.js") }).execute("1"),
		);
		expect(missing.kind).toBe("sandbox");
		const exiting = failure(
			await sandbox({ workerUrl: new URL("./fixtures/exiting-worker.mjs", import.meta.url) }).execute("1"),
		);
		expect(exiting).toEqual({ kind: "sandbox", message: "Worker exited with code 7 before the script settled" });
	});

	it("fails as sandbox when the VM sends malformed messages", async () => {
		const broken = failure(
			await sandbox({ workerUrl: new URL("./fixtures/forging-worker.mjs", import.meta.url) }).execute("1"),
		);
		expect(broken.kind).toBe("sandbox");
		expect(broken.message).toMatch(/bridge/);
	});

	// The returning run has no deadline, so a slow worker start cannot turn its "ok" into a timeout;
	// the two others can only end by their deadline.
	it("never keeps the process alive", () => {
		const entry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
		const script = `
			const { CodemodeSandbox } = await import(${JSON.stringify(entry)});
			const s = new CodemodeSandbox({ timeoutMs: 2000, tools: [{ name: "hang", execute: () => new Promise(() => {}) }] });
			const runs = await Promise.all([
				s.execute("while (true) {}"),
				s.execute("tools.hang(); return 1", { timeoutMs: Number.POSITIVE_INFINITY }),
				s.execute("await tools.hang()"),
			]);
			console.log(runs.map((r) => r.ok ? "ok" : r.error.kind).join(","));
		`;
		const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
			encoding: "utf8",
			timeout: 60_000,
		});
		expect(child.signal).toBe(null);
		expect(child.stdout.trim()).toBe("timeout,ok,timeout");
		expect(child.status).toBe(0);
	}, 90_000);

	it("unknown tool names sent by the VM get an error reply", async () => {
		const s = sandbox({ tools: [tool("known", () => 1)] });
		expect(okValue(await s.execute("return await tools.known()"))).toBe(1);
	});
});
