import { describe, expect, it, vi } from "vitest";
import { deferred, failure, gatedTool, okValue, run, sandbox, tool } from "./helpers.js";

describe("deadline", () => {
	it("times out a busy loop while the host event loop stays responsive", async () => {
		let hostTicks = 0;
		const s = sandbox({ timeoutMs: 300 });
		const pending = s.execute("while (true) {}");
		const ticking = setInterval(() => hostTicks++, 1);
		const result = await pending;
		clearInterval(ticking);
		expect(failure(result)).toEqual({ kind: "timeout", message: "Execution timed out after 300 ms" });
		expect(hostTicks).toBeGreaterThan(0);
	});

	it("times out an endless microtask loop", async () => {
		expect(failure(await run("while (true) await null", { timeoutMs: 300 })).kind).toBe("timeout");
	});

	it("counts tool time and aborts a tool outliving the deadline", async () => {
		// The host's deadline runs on a fake clock, advanced once the tool runs: a slow worker start
		// on a loaded machine cannot use up the deadline before the script reaches the tool.
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		try {
			const called = deferred();
			const signals: AbortSignal[] = [];
			const hang = tool("hang", (_a, { signal }) => {
				signals.push(signal);
				called.resolve();
				return new Promise(() => {});
			});
			const pending = sandbox({ tools: [hang] }).execute("await tools.hang()", { timeoutMs: 2000 });
			await called.promise;
			vi.advanceTimersByTime(2000);
			const result = await pending;
			expect(failure(result)).toEqual({ kind: "timeout", message: "Execution timed out after 2000 ms" });
			expect(signals[0]?.aborted).toBe(true);
			expect(result.calls).toEqual([expect.objectContaining({ status: "cancelled" })]);
		} finally {
			vi.useRealTimers();
		}
	});

	it("never times out with timeoutMs Infinity", async () => {
		const { tool: wait, started, gate } = gatedTool<string>("wait");
		const s = sandbox({ tools: [wait], timeoutMs: Number.POSITIVE_INFINITY });
		const pending = s.execute("return await tools.wait()");
		await started.promise;
		gate.resolve("late");
		expect(okValue(await pending)).toBe("late");
	});
});

describe("abort and close", () => {
	it("aborts mid-tool with the caller's reason", async () => {
		const controller = new AbortController();
		const signals: AbortSignal[] = [];
		const slow = tool("slow", (_a, { signal }) => {
			signals.push(signal);
			controller.abort(new Error("user pressed escape"));
			return new Promise(() => {});
		});
		const result = await sandbox({ tools: [slow] }).execute("await tools.slow()", { signal: controller.signal });
		expect(failure(result)).toEqual({ kind: "aborted", message: "user pressed escape" });
		expect(signals[0]?.aborted).toBe(true);
		const preAborted = new AbortController();
		preAborted.abort("not an Error");
		expect(failure(await sandbox().execute("return 1", { signal: preAborted.signal }))).toEqual({
			kind: "aborted",
			message: "Execution aborted",
		});
	});

	it("close() aborts running scripts and later execute() rejects", async () => {
		let started = 0;
		const both = deferred();
		const wait = tool("wait", () => {
			if (++started === 2) both.resolve();
			return new Promise(() => {});
		});
		const s = sandbox({ tools: [wait] });
		const runs = [s.execute("await tools.wait()"), s.execute("await tools.wait()")];
		await both.promise;
		await s.close();
		for (const result of await Promise.all(runs)) {
			expect(failure(result)).toEqual({ kind: "aborted", message: "Sandbox closed" });
		}
		await expect(s.execute("return 1")).rejects.toThrow("Sandbox is closed");
	});
});

describe("never-settling scripts", () => {
	it("fails at once when nothing can settle the awaited promise", async () => {
		const error = failure(await run("await new Promise(() => {})", { timeoutMs: Number.POSITIVE_INFINITY }));
		expect(error).toMatchObject({ kind: "script", name: "Error" });
		expect(error.message).toMatch(/can never settle/);
	});

	it("waits while a tool call is pending", async () => {
		const { tool: later, started, gate } = gatedTool<number>("later");
		const s = sandbox({ tools: [later], timeoutMs: Number.POSITIVE_INFINITY });
		const pending = s.execute("return await new Promise((resolve) => { tools.later().then(resolve) })");
		await started.promise;
		gate.resolve(7);
		expect(okValue(await pending)).toBe(7);
	});
});

describe("engine limits", () => {
	it("turns memory bombs into catchable out-of-memory errors and recovers on the next run", async () => {
		// No deadline: only running out of memory may end these runs, however slow the machine.
		const s = sandbox({ memoryLimitBytes: 32 * 1024 * 1024, timeoutMs: Number.POSITIVE_INFINITY });
		const rssBefore = process.memoryUsage().rss;
		const value = okValue(
			await s.execute(
				"const a = []; try { while (true) a.push(new Array(100000).fill(1)); } catch (e) { return String(e) }",
			),
		);
		expect(value).toMatch(/out of memory/);
		expect(process.memoryUsage().rss - rssBefore).toBeLessThan(512 * 1024 * 1024);
		expect(okValue(await s.execute("return 'fine'"))).toBe("fine");
		const uncaught = failure(await s.execute("const a = []; while (true) a.push('x'.repeat(1 << 20) + a.length);"));
		expect(uncaught.kind).toBe("script");
		expect(uncaught.message).toMatch(/out of memory/);
	}, 60_000);

	it("turns deep recursion into a catchable error", async () => {
		const value = okValue(
			await run("function f(n) { return f(n + 1) + 1 } try { f(0) } catch (e) { return String(e) }"),
		);
		expect(value).toMatch(/stack overflow|call stack/i);
		expect(failure(await run("function f(n) { return f(n + 1) + 1 } f(0)")).kind).toBe("script");
	});

	it("fails the run when output items exceed the limit, even if caught", async () => {
		// No deadline: 100,001 bridge messages may take long on a loaded machine, and only the limit may end the run.
		const result = await run(`for (let i = 0; i < 100001; i++) { try { text("") } catch {} } return "unreachable"`, {
			timeoutMs: Number.POSITIVE_INFINITY,
		});
		expect(failure(result)).toMatchObject({ kind: "script", name: "RangeError" });
		expect(result.output).toHaveLength(100000);
	}, 90_000);

	it("fails the run when output characters exceed the limit and keeps prior output", async () => {
		const result = await run(`text("first"); try { text("x".repeat(17 * 1024 * 1024)) } catch {} text("later")`, {
			timeoutMs: Number.POSITIVE_INFINITY,
		});
		expect(failure(result)).toMatchObject({ kind: "script", name: "RangeError" });
		expect(failure(result).message).toMatch(/summary/);
		expect(result.output).toEqual([{ type: "text", text: "first" }]);
	});

	it("keeps output produced before a failure", async () => {
		const result = await run(`text("a"); console.log("b"); throw new Error("late")`);
		expect(result.output).toEqual([
			{ type: "text", text: "a" },
			{ type: "text", text: "b", console: true },
		]);
	});
});
