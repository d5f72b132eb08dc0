import { describe, expect, it } from "vitest";
import { failure, okValue, run, sandbox, tool } from "./helpers.js";

describe("hostile scripts", () => {
	it("cannot pollute host prototypes", async () => {
		const result = await run(
			`try { Object.prototype.polluted = "yes" } catch {}
			try { Array.prototype.push = () => 0 } catch {}
			const arg = JSON.parse('{"__proto__": {"polluted": "yes"}}');
			await tools.take(arg);
			return Object.prototype.polluted ?? "clean"`,
			{ tools: [tool("take", (args) => Object.keys(args as object))] },
		);
		expect(okValue(result)).toBe("clean");
		expect(({} as { polluted?: string }).polluted).toBeUndefined();
		expect([1].push(2)).toBe(2);
	});

	it("fails closed when the engine cannot load, never evaluating the script on the host", async () => {
		(globalThis as { hostEvaluated?: boolean }).hostEvaluated = false;
		const result = await sandbox({ workerUrl: new URL("./fixtures/no-wasm-worker.mjs", import.meta.url) }).execute(
			"globalThis.hostEvaluated = true; return 1",
		);
		expect(failure(result).kind).toBe("sandbox");
		expect(failure(result).message).toMatch(/QuickJS failed to load/);
		expect((globalThis as { hostEvaluated?: boolean }).hostEvaluated).toBe(false);
	});

	it("rejects text() of values that cannot be serialized", async () => {
		const value = okValue(await run(`const a = {}; a.a = a; try { text(a) } catch (e) { return e.name }`));
		expect(value).toBe("TypeError");
	});

	it("cannot reach the bridge through Function or stack tricks", async () => {
		const value = okValue(
			await run(`
				const names = Object.getOwnPropertyNames(globalThis);
				const leaked = names.filter((n) => /bridge|settle|prelude/i.test(n));
				let callerLeak = "none";
				try { callerLeak = typeof text.caller } catch { callerLeak = "blocked" }
				return [leaked, callerLeak === "function"];
			`),
		);
		expect(value).toEqual([[], false]);
	});
});
