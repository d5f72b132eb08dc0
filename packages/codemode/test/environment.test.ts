import { describe, expect, it } from "vitest";
import { deferred, failure, okValue, run, sandbox, tool } from "./helpers.js";

const INTRINSICS = [
	"AggregateError",
	"Array",
	"ArrayBuffer",
	"BigInt",
	"BigInt64Array",
	"BigUint64Array",
	"Boolean",
	"DataView",
	"Date",
	"Error",
	"EvalError",
	"FinalizationRegistry",
	"Float16Array",
	"Float32Array",
	"Float64Array",
	"Function",
	"Infinity",
	"Int16Array",
	"Int32Array",
	"Int8Array",
	"InternalError",
	"Iterator",
	"JSON",
	"Map",
	"Math",
	"NaN",
	"Number",
	"Object",
	"Promise",
	"Proxy",
	"RangeError",
	"ReferenceError",
	"Reflect",
	"RegExp",
	"Set",
	"String",
	"Symbol",
	"SyntaxError",
	"TypeError",
	"URIError",
	"Uint16Array",
	"Uint32Array",
	"Uint8Array",
	"Uint8ClampedArray",
	"WeakMap",
	"WeakRef",
	"WeakSet",
	"decodeURI",
	"decodeURIComponent",
	"encodeURI",
	"encodeURIComponent",
	"escape",
	"eval",
	"globalThis",
	"isFinite",
	"isNaN",
	"parseFloat",
	"parseInt",
	"undefined",
	"unescape",
];
const DOCUMENTED = ["ALL_TOOLS", "atob", "btoa", "console", "exit", "image", "load", "store", "text", "tools"];

describe("script environment", () => {
	it("has no ambient host capabilities", async () => {
		const value = okValue(
			await run(
				`return ["process","require","module","fetch","setTimeout","setInterval","setImmediate","Buffer","WebAssembly","XMLHttpRequest","WebSocket","SharedArrayBuffer","Atomics","std","os"].map((n) => typeof globalThis[n])`,
			),
		);
		expect(new Set(value as string[])).toEqual(new Set(["undefined"]));
		expect(okValue(await run(`try { await import("fs"); return "imported" } catch (e) { return "rejected" }`))).toBe(
			"rejected",
		);
		expect(okValue(await run(`try { await import("./x.js"); return "imported" } catch { return "rejected" }`))).toBe(
			"rejected",
		);
	});

	it("exposes only the intrinsics, the documented globals and configured globals", async () => {
		const names = okValue(await run("return Object.getOwnPropertyNames(globalThis).sort()")) as string[];
		expect(names).toEqual([...INTRINSICS, ...DOCUMENTED].sort());
		const withGlobals = okValue(
			await run("return Object.getOwnPropertyNames(globalThis).filter((n) => n === 'hello' || n === 'ns')", {
				globals: [tool("hello", () => 1), tool("ns.member", () => 2)],
			}),
		);
		expect(withGlobals).toEqual(["hello", "ns"]);
	});

	it("keeps documented globals non-writable and non-configurable", async () => {
		const value = okValue(
			await run(
				`return ${JSON.stringify(DOCUMENTED)}.map((n) => { const d = Object.getOwnPropertyDescriptor(globalThis, n); return d.writable || d.configurable })`,
			),
		);
		expect(value).toEqual(DOCUMENTED.map(() => false));
	});
});

describe("btoa and atob", () => {
	it("encode and decode binary strings like Node's, and reject what Node rejects", async () => {
		const samples = ["", "f", "fo", "foo", "foob", "fooba", "foobar", "hello, world", "\u00ff\u0000\u0080", "é"];
		const encoded = okValue(await run(`return ${JSON.stringify(samples)}.map((s) => btoa(s))`)) as string[];
		expect(encoded).toEqual(samples.map((s) => btoa(s)));
		const inputs = [...encoded, "Zm9v YmFy", "Zm9vYg", " aGk=\n"];
		const decoded = okValue(await run(`return ${JSON.stringify(inputs)}.map((s) => atob(s))`)) as string[];
		expect(decoded).toEqual(inputs.map((s) => atob(s)));
		const errors = okValue(
			await run(
				`return ["\u0100", "😀"].map((s) => { try { btoa(s); return "ok" } catch (e) { return e.name } }).concat(
					["a", "Zm9v!", "Zm9vY===", "Zm9vYg="].map((s) => { try { atob(s); return "ok" } catch (e) { return e.name } }))`,
			),
		);
		expect(errors).toEqual(Array(6).fill("InvalidCharacterError"));
		for (const bad of ["\u0100", "😀"]) expect(() => btoa(bad)).toThrow();
		for (const bad of ["a", "Zm9v!", "Zm9vY===", "Zm9vYg="]) expect(() => atob(bad)).toThrow();
	});
});

describe("escapes", () => {
	it("reaches only the VM global through constructors and eval", async () => {
		const value = okValue(
			await run(`
				const g1 = (function(){}).constructor("return this")();
				const g2 = eval("this");
				return [g1 === globalThis, g2 === globalThis, tools.constructor === Object,
					ALL_TOOLS.constructor.constructor("return typeof process")(),
					tools.constructor.constructor("return typeof require")()];
			`),
		);
		expect(value).toEqual([true, true, true, "undefined", "undefined"]);
	});

	it("overwriting built-ins never alters bridge data or crashes the host", async () => {
		const received: unknown[] = [];
		const result = await run(
			`
			try { globalThis.tools = null } catch {}
			try { globalThis.text = () => {} } catch {}
			try { JSON.stringify = () => '"forged"' } catch {}
			try { JSON.parse = () => "forged" } catch {}
			try { Array.prototype.toJSON = () => "forged" } catch {}
			try { Object.prototype.toJSON = () => "forged" } catch {}
			try { Promise.prototype.then = () => "forged" } catch {}
			const back = await tools.echo({ list: [1, 2], nested: { ok: true } });
			text("still works");
			return back;
			`,
			{
				tools: [
					tool("echo", (args) => {
						received.push(args);
						return args;
					}),
				],
			},
		);
		expect(result.ok).toBe(true);
		expect(received).toEqual([{ list: [1, 2], nested: { ok: true } }]);
		expect(result.ok && result.value).toEqual({ list: [1, 2], nested: { ok: true } });
		expect(result.output).toEqual([{ type: "text", text: "still works" }]);
	});

	it("lets Error subclasses set this.name", async () => {
		const error = failure(
			await run(`class MyError extends Error { constructor(m) { super(m); this.name = "MyError"; } }
			throw new MyError("custom")`),
		);
		expect(error).toMatchObject({ kind: "script", name: "MyError", message: "custom" });
		expect(error.stack).toMatch(/^MyError: custom/);
	});

	it("gives host tools plain JSON and rejects cyclic arguments inside the VM", async () => {
		const received: unknown[] = [];
		const echo = tool("echo", (args) => {
			received.push(args);
			return "ok";
		});
		const value = okValue(
			await run(
				`await tools.echo({ a: 1, f() {}, u: undefined, d: new Date(0) });
				const cyclic = {}; cyclic.self = cyclic;
				try { await tools.echo(cyclic) } catch (e) { return e.name }`,
				{ tools: [echo] },
			),
		);
		expect(value).toBe("TypeError");
		expect(received).toEqual([{ a: 1, d: "1970-01-01T00:00:00.000Z" }]);
	});

	it("host results cross as JSON only", async () => {
		const hostObject = { fn: () => 1, date: new Date(0), nested: { n: 1 } };
		const value = okValue(
			await run("const r = await tools.get(); return [typeof r.fn, r.date, r.nested.n]", {
				tools: [tool("get", () => hostObject)],
			}),
		);
		expect(value).toEqual(["undefined", "1970-01-01T00:00:00.000Z", 1]);
	});
});

describe("execute() semantics", () => {
	it("returns values, supports top-level await and keeps output order", async () => {
		expect(okValue(await run("return 1+1"))).toBe(2);
		expect(okValue(await run("const v = await Promise.resolve(5); return v * 2"))).toBe(10);
		const result = await run(`text(undefined); text(null); text({a:1}); console.log("a", 1, {b:2}); text("last")`);
		expect(result.ok && result.value).toBe(undefined);
		expect(result.output).toEqual([
			{ type: "text", text: "undefined" },
			{ type: "text", text: "null" },
			{ type: "text", text: '{"a":1}' },
			{ type: "text", text: 'a 1 {"b":2}', console: true },
			{ type: "text", text: "last" },
		]);
	});

	it("formats Errors in console output", async () => {
		const result = await run(`console.error("failed:", new RangeError("bad"))`);
		expect(result.output[0]).toMatchObject({ console: true });
		expect((result.output[0] as { text: string }).text).toMatch(/^failed: RangeError: bad/);
	});

	it("exit() keeps output and store writes and skips later code, even inside try/catch", async () => {
		const s = sandbox();
		const result = await s.execute(`text("before"); store("k", 1); try { exit() } catch {} text("after"); return 5`);
		expect(result).toMatchObject({ ok: true, value: undefined, storeWrites: { set: { k: 1 }, delete: [] } });
		expect(result.output).toEqual([{ type: "text", text: "before" }]);
	});

	it("reports syntax errors and thrown errors as script errors with exact line numbers", async () => {
		const thrown = failure(await run(`const a = 1;\nconst b = 2;\nthrow new TypeError("line three");`));
		expect(thrown).toMatchObject({ kind: "script", name: "TypeError", message: "line three" });
		expect(thrown.stack).toMatch(/codemode\.js:3\b/);
		expect(thrown.stack).not.toMatch(/prelude/);
		const syntax = failure(await run(`const a = 1;\nconst = ;`));
		expect(syntax).toMatchObject({ kind: "script", name: "SyntaxError" });
		expect(syntax.stack).toMatch(/codemode\.js:2\b/);
		const viaTool = failure(
			await run(`\n\nawait tools.fail({})`, {
				tools: [
					tool("fail", () => {
						throw new Error("boom");
					}),
				],
			}),
		);
		expect(viaTool).toMatchObject({ kind: "script", message: "boom" });
		expect(viaTool.stack).not.toMatch(/prelude/);
	});

	it("reports non-Error throws", async () => {
		expect(failure(await run(`throw "plain"`))).toMatchObject({ kind: "script", message: "plain" });
	});
});

describe("tools", () => {
	it("calls tools by identifier or raw name, guards missing names and behaves normally otherwise", async () => {
		const myTool = tool("my-tool", (args) => ({ got: args }));
		const other = tool("other_tool", () => "x");
		const value = okValue(
			await run(
				`const a = await tools["my-tool"]({ n: 1 });
				const b = await tools.my_tool({ n: 2 });
				let missing;
				try { tools.my_tol } catch (e) { missing = e.name + ": " + e.message }
				const t = await tools;
				return [a, b, missing, "my_tool" in tools, "nope" in tools, tools.then, tools.toJSON, typeof tools.hasOwnProperty,
					t === tools, ALL_TOOLS];`,
				{ tools: [myTool, other] },
			),
		) as unknown[];
		expect(value[0]).toEqual({ got: { n: 1 } });
		expect(value[1]).toEqual({ got: { n: 2 } });
		expect(value[2]).toMatch(/^TypeError: tools\.my_tol/);
		expect(value[2]).toMatch(/my_tool/);
		expect(value[2]).toMatch(/ALL_TOOLS/);
		expect(value.slice(3, 9)).toEqual([true, false, null, null, "function", true]);
		expect(value[9]).toEqual([
			{ name: "my_tool", description: "" },
			{ name: "other_tool", description: "" },
		]);
	});

	it("lists all tool names when nothing is close and there are few tools", async () => {
		const error = failure(await run("tools.zzz", { tools: [tool("alpha", () => 1), tool("beta", () => 2)] }));
		expect(error.message).toMatch(/alpha, beta/);
	});

	it("gives the first tool an identifier on collision", async () => {
		const value = okValue(
			await run("return [await tools.a_b(), await tools['a.b'](), ALL_TOOLS.length]", {
				tools: [tool("a-b", () => "dash"), tool("a.b", () => "dot")],
			}),
		);
		expect(value).toEqual(["dash", "dot", 1]);
	});

	it("rejects with the host error message", async () => {
		const value = okValue(
			await run(`try { await tools.fail() } catch (e) { return [e instanceof Error, e.message] }`, {
				tools: [
					tool("fail", () => {
						throw new Error("boom");
					}),
				],
			}),
		);
		expect(value).toEqual([true, "boom"]);
	});

	it("runs 50 concurrent calls overlapping on the host", async () => {
		let active = 0;
		let maxActive = 0;
		const all = deferred();
		const slow = tool("slow", async (args) => {
			active++;
			maxActive = Math.max(maxActive, active);
			if (active === 50) all.resolve();
			await all.promise;
			active--;
			return args;
		});
		const result = await run(
			"return (await Promise.all(Array.from({ length: 50 }, (_, i) => tools.slow(i)))).length",
			{
				tools: [slow],
			},
		);
		expect(okValue(result)).toBe(50);
		expect(maxActive).toBe(50);
		expect(result.calls).toHaveLength(50);
		expect(result.calls.every((c) => c.status === "ok" && c.name === "slow")).toBe(true);
	});

	it("cancels calls still running at the end and marks them cancelled", async () => {
		const signals: AbortSignal[] = [];
		const never = tool("never", (_args, { signal }) => {
			signals.push(signal);
			return new Promise(() => {});
		});
		const result = await run(`tools.never(); return "done"`, { tools: [never] });
		expect(okValue(result)).toBe("done");
		expect(result.calls).toEqual([expect.objectContaining({ name: "never", status: "cancelled" })]);
		expect(signals[0]?.aborted).toBe(true);
	});

	it("records failed calls as errors", async () => {
		const result = await run(`try { await tools.bad() } catch {} return 1`, {
			tools: [
				tool("bad", () => {
					throw new Error("x");
				}),
			],
		});
		expect(result.calls).toEqual([expect.objectContaining({ name: "bad", status: "error" })]);
	});

	it("snapshots the tool table per execution", async () => {
		const s = sandbox({ tools: [tool("a", () => 1)] });
		expect(() => s.registerTool(tool("a", () => 2))).toThrow(/already registered/);
		s.registerTool(tool("b", () => 2));
		expect(okValue(await s.execute("return await tools.b()"))).toBe(2);
		expect(s.unregisterTool("b")).toBe(true);
		expect(s.unregisterTool("b")).toBe(false);
		expect(failure(await s.execute("return await tools.b()")).name).toBe("TypeError");
		expect(s.tools.map((t) => t.name)).toEqual(["a"]);
	});
});

describe("globals", () => {
	it("calls plain and namespaced globals, passing the first argument or the spread array", async () => {
		const seen: unknown[] = [];
		const result = await run(
			`const a = await greet({ who: "x" }, "ignored");
			const b = await math.add(1, undefined, 3);
			let missing;
			try { math.nope } catch (e) { missing = e.message }
			return [a, b, missing];`,
			{
				globals: [
					tool("greet", (args) => {
						seen.push(args);
						return "hi";
					}),
					tool(
						"math.add",
						(args) => {
							seen.push(args);
							return 4;
						},
						{ spread: true },
					),
				],
			},
		);
		const value = okValue(result) as unknown[];
		expect(value.slice(0, 2)).toEqual(["hi", 4]);
		expect(value[2]).toMatch(/math\.nope/);
		expect(value[2]).not.toMatch(/searchTools/);
		expect(seen).toEqual([{ who: "x" }, [1, null, 3]]);
		expect(result.calls).toEqual([]);
	});

	it("rejects invalid global definitions at construction", () => {
		const g = (name: string) => tool(name, () => 1);
		expect(() => sandbox({ globals: [g("tools")] })).toThrow(/reserved/);
		expect(() => sandbox({ globals: [g("store.x")] })).toThrow(/reserved/);
		expect(() => sandbox({ globals: [g("a.b.c")] })).toThrow(/identifier/);
		expect(() => sandbox({ globals: [g("bad-name")] })).toThrow(/identifier/);
		expect(() => sandbox({ globals: [g("x"), g("x")] })).toThrow(/Duplicate/);
		expect(() => sandbox({ globals: [g("ns"), g("ns.m")] })).toThrow(/namespace/);
		expect(() => sandbox({ globals: [g("models.x")], models: { y: () => 1 } })).toThrow(/models/);
	});

	it("expands models into spread globals", async () => {
		const seen: unknown[] = [];
		const s = sandbox({
			models: {
				classify: (args) => {
					seen.push(args);
					return { ok: 1 };
				},
			},
		});
		expect(s.globals).toEqual([expect.objectContaining({ name: "models.classify", spread: true })]);
		expect(okValue(await s.execute(`return await models.classify({ provider: "p" }, { text: "t" })`))).toEqual({
			ok: 1,
		});
		expect(seen).toEqual([[{ provider: "p" }, { text: "t" }]]);
	});
});
