import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import { CodemodeSandbox } from "@tau/codemode";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { sandboxTimeoutMs } from "../../../src/builtin/codemode/executor.js";
import { CodemodeWorkerPool, codemodeWorkerCapacity, WorkerWaitError } from "../../../src/builtin/codemode/index.js";
import type { AnyToolDefinition } from "../../../src/core/extensions/index.js";
import { createCodemodeHarness, runScript } from "./harness.js";

/** A clock whose timers fire only when the test says so; `scheduled` settles at the first timer set. */
function manualClock() {
	const timers = new Set<() => void>();
	let markScheduled!: () => void;
	const scheduled = new Promise<void>((resolve) => {
		markScheduled = resolve;
	});
	return {
		scheduled,
		clock: {
			setTimeout: (fn: () => void) => {
				timers.add(fn);
				markScheduled();
				return fn;
			},
			clearTimeout: (handle: unknown) => {
				timers.delete(handle as () => void);
			},
		},
		fireAll: () => {
			for (const fn of [...timers]) {
				timers.delete(fn);
				fn();
			}
		},
		get pending() {
			return timers.size;
		},
	};
}

const ENV_NAME = "TAU_CODEMODE_MAX_WORKERS";
const savedEnv = process.env[ENV_NAME];
afterEach(() => {
	if (savedEnv === undefined) delete process.env[ENV_NAME];
	else process.env[ENV_NAME] = savedEnv;
});

describe("worker capacity", () => {
	it("reads TAU_CODEMODE_MAX_WORKERS as a positive integer, else 2", () => {
		expect(codemodeWorkerCapacity({})).toBe(2);
		expect(codemodeWorkerCapacity({ [ENV_NAME]: "5" })).toBe(5);
		for (const bad of ["0", "-1", "1.5", "x", ""]) expect(codemodeWorkerCapacity({ [ENV_NAME]: bad })).toBe(2);
	});

	it("serves waiters in arrival order and applies an env change at the next admission", async () => {
		process.env[ENV_NAME] = "1";
		const { clock } = manualClock();
		const pool = new CodemodeWorkerPool(undefined, clock);
		const first = await pool.reserve({ waitMs: 1000 });
		const order: string[] = [];
		const second = pool.reserve({ waitMs: 1000 }).then((slot) => {
			order.push("second");
			return slot;
		});
		const third = pool.reserve({ waitMs: 1000 }).then((slot) => {
			order.push("third");
			return slot;
		});
		first.discard();
		const secondSlot = await second;
		expect(order).toEqual(["second"]);
		secondSlot.discard();
		(await third).discard();
		expect(order).toEqual(["second", "third"]);
		expect(pool.inUse).toBe(0);
		const held = await pool.reserve({ waitMs: 1000 });
		process.env[ENV_NAME] = "2";
		const immediate = await pool.reserve({ waitMs: 1000 });
		expect(pool.inUse).toBe(2);
		held.discard();
		immediate.discard();
	});

	it("gives up after the wait and on abort", async () => {
		const manual = manualClock();
		const pool = new CodemodeWorkerPool(() => 1, manual.clock);
		const held = await pool.reserve({ waitMs: 1000 });
		const timedOut = pool.reserve({ waitMs: 500 });
		manual.fireAll();
		await expect(timedOut).rejects.toMatchObject({ reason: "timeout" });
		const controller = new AbortController();
		const aborted = pool.reserve({ waitMs: 500, signal: controller.signal });
		controller.abort();
		await expect(aborted).rejects.toBeInstanceOf(WorkerWaitError);
		expect(manual.pending).toBe(0);
		held.discard();
		expect(pool.inUse).toBe(0);
	});

	it("keeps an aborted script's slot until its worker exits and forbids a late start", async () => {
		const pool = new CodemodeWorkerPool(() => 1);
		const slot = await pool.reserve({ waitMs: 1000 });
		let exited: Promise<void> | undefined;
		const sandbox = new CodemodeSandbox({
			acquireWorker: () => slot.handOver(),
			onWorkerStarted: (e) => {
				exited = e;
			},
		});
		const controller = new AbortController();
		const running = sandbox.execute("while (true) await null", { signal: controller.signal });
		controller.abort();
		expect((await running).ok).toBe(false);
		slot.discard();
		expect(pool.inUse).toBe(1);
		await exited;
		expect(pool.inUse).toBe(0);
		const unused = await pool.reserve({ waitMs: 1000 });
		unused.discard();
		expect(() => unused.handOver()).toThrow(/must not start/);
	});
});

describe("admission in the codemode tool", () => {
	it("reports a script that timed out while waiting for a worker as not started", async () => {
		const manual = manualClock();
		const pool = new CodemodeWorkerPool(() => 1, manual.clock);
		const held = await pool.reserve({ waitMs: 1000 });
		const h = await createCodemodeHarness({ codemode: { workerPool: pool } });
		const pending = runScript(h, `// @options: {"timeout_ms": 500}\nreturn 1`);
		// The script waits for the held worker: its admission timer is the only one set.
		await manual.scheduled;
		expect(manual.pending).toBe(1);
		manual.fireAll();
		const result = await pending;
		expect(result.isError).toBe(true);
		expect(result.text).toMatch(/timed out while waiting for a free codemode worker/);
		expect(result.text).toMatch(/did not start/);
		held.discard();
	});

	it("runs scripts in arrival order with one worker", async () => {
		const pool = new CodemodeWorkerPool(() => 1);
		const marks: string[] = [];
		const mark: AnyToolDefinition = {
			name: "mark",
			label: "mark",
			description: "Records a mark",
			parameters: Type.Object({ value: Type.String() }),
			exposure: "codemode",
			execute: async (_id, params) => {
				marks.push((params as { value: string }).value);
				return { content: [{ type: "text", text: "ok" }], details: undefined };
			},
		};
		const h = await createCodemodeHarness({ tools: [mark], codemode: { workerPool: pool } });
		h.faux.setResponses([
			fauxAssistantMessage(
				[
					fauxToolCall(
						"codemode",
						{ code: "await tools.mark({ value: 'A start' }); await tools.mark({ value: 'A end' })" },
						{ id: "a" },
					),
					fauxToolCall("codemode", { code: "await tools.mark({ value: 'B' })" }, { id: "b" }),
				],
				{ stopReason: "toolUse" },
			),
			fauxAssistantMessage("done"),
		]);
		await h.session.prompt("go");
		const results = h.session.messages.filter((m) => m.role === "toolResult");
		expect(results).toHaveLength(2);
		expect(marks).toEqual(["A start", "A end", "B"]);
	});

	it("gives scripts a 256 MiB heap and no deadline without timeout_ms", async () => {
		expect(sandboxTimeoutMs(undefined, 10)).toBe(Number.POSITIVE_INFINITY);
		expect(sandboxTimeoutMs(500, 100)).toBe(400);
		expect(sandboxTimeoutMs(500, 900)).toBe(1);
		const h = await createCodemodeHarness();
		const result = await runScript(
			h,
			`const chunks = []; try { for (let i = 0; i < 300; i++) chunks.push(new Uint8Array(1024 * 1024).fill(1)); return "allocated" } catch (e) { return String(e) }`,
		);
		expect(result.text).toMatch(/out of memory/);
	});
});
