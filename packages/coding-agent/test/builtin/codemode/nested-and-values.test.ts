import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import type { AnyToolDefinition } from "../../../src/core/extensions/index.js";
import { createCodemodeHarness, runScript } from "./harness.js";

const sink: AnyToolDefinition = {
	name: "sink",
	label: "sink",
	description: "Accepts anything",
	parameters: Type.Object({ data: Type.Optional(Type.String()) }),
	exposure: "codemode",
	execute: async () => ({
		content: [{ type: "text", text: "ok" }],
		details: undefined,
		usage: {
			input: 10,
			output: 5,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 15,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.01 },
		},
	}),
};

function nestedCallsOf(h: Awaited<ReturnType<typeof createCodemodeHarness>>) {
	const message = h.session.messages.find((m) => m.role === "toolResult") as {
		nestedCalls?: {
			calls: { id: string; status: string; arguments?: unknown; argumentsBytes?: number }[];
			complete: boolean;
		};
		usage?: { input: number; output: number };
	};
	return message;
}

describe("nested call records", () => {
	it("records up to 256 calls and marks the record incomplete beyond that", async () => {
		const h = await createCodemodeHarness({ tools: [sink] });
		const result = await runScript(h, `for (let i = 0; i < 300; i++) await tools.sink({}); return "done"`);
		expect(result.text).toContain("done");
		const message = nestedCallsOf(h);
		expect(message.nestedCalls?.calls).toHaveLength(256);
		expect(message.nestedCalls?.complete).toBe(false);
		expect(message.nestedCalls?.calls[0]).toMatchObject({ id: "call_7/1", status: "ok" });
		expect(message.nestedCalls?.calls[0]).not.toHaveProperty("result");
		expect(message.usage?.input).toBeGreaterThanOrEqual(300 * 10);
	});

	it("replaces large arguments by their size and omits arguments past the total", async () => {
		const h = await createCodemodeHarness({ tools: [sink] });
		await runScript(
			h,
			`await tools.sink({ data: "x".repeat(9 * 1024) });
			for (let i = 0; i < 5; i++) await tools.sink({ data: "y".repeat(7 * 1024) });`,
		);
		const calls = nestedCallsOf(h).nestedCalls!.calls;
		expect(calls[0]!.arguments).toBeUndefined();
		expect(calls[0]!.argumentsBytes).toBeGreaterThan(9 * 1024);
		expect(calls.slice(1, 5).every((c) => c.arguments !== undefined)).toBe(true);
		expect(calls[5]!.arguments).toBeUndefined();
		expect(calls[5]!.argumentsBytes).toBeGreaterThan(7 * 1024);
		expect(nestedCallsOf(h).nestedCalls!.complete).toBe(false);
	});
});

describe("nested call statuses", () => {
	it("records ok and error calls with durations and error text; an unawaited call is cancelled at script end", async () => {
		const failing: AnyToolDefinition = {
			...sink,
			name: "fails",
			execute: async () => {
				throw new Error("disk full");
			},
		};
		const hanging: AnyToolDefinition = {
			...sink,
			name: "hangs",
			execute: (_id, _params, signal) =>
				new Promise((_resolve, reject) => {
					signal?.addEventListener("abort", () => reject(new Error("cancelled")), { once: true });
				}),
		};
		const h = await createCodemodeHarness({ tools: [sink, failing, hanging] });
		await runScript(h, `await tools.sink({}); try { await tools.fails({}) } catch {} tools.hangs({}); return 1`);
		const record = nestedCallsOf(h).nestedCalls as {
			calls: { id: string; name: string; status: string; durationMs?: number; error?: string }[];
			complete: boolean;
		};
		expect(record.calls.map((call) => [call.id, call.name, call.status])).toEqual([
			["call_7/1", "sink", "ok"],
			["call_7/2", "fails", "error"],
			["call_7/3", "hangs", "error"],
		]);
		expect(record.calls[0]!.durationMs).toEqual(expect.any(Number));
		expect(record.calls[1]!.durationMs).toEqual(expect.any(Number));
		expect(record.calls[1]!.error).toBe("disk full");
		expect(record.calls[2]!.error).toBe("cancelled");
		expect(record.complete).toBe(true);
	});
});

describe("values returned to scripts by built-in tools", () => {
	it("bash resolves an object for non-zero exits", async () => {
		const h = await createCodemodeHarness({ harness: { session: { tools: ["bash", "codemode"] } } });
		const result = await runScript(
			h,
			`const r = await tools.bash({ command: "echo hi; exit 3" }); return [r.exit_code, r.output.trim(), r.truncated]`,
		);
		expect(result.text).toContain('[3,"hi",false]');
	});

	it("bash keeps about 1 MiB of a 3 MiB output and saves the rest", async () => {
		const h = await createCodemodeHarness({ harness: { session: { tools: ["bash", "codemode"] } } });
		const result = await runScript(
			h,
			`const r = await tools.bash({ command: "head -c 3145728 /dev/zero | tr '\\\\0' a" });
			return [r.truncated, r.output.length, /bytes omitted/.test(r.output), r.full_output_path]`,
		);
		const [truncated, length, marker, path] = JSON.parse(/\[true.*\]/.exec(result.text)![0]) as [
			boolean,
			number,
			boolean,
			string,
		];
		expect(truncated).toBe(true);
		expect(length).toBeGreaterThan(1000 * 1024);
		expect(length).toBeLessThan(1100 * 1024);
		expect(marker).toBe(true);
		expect(existsSync(path)).toBe(true);
	});

	it("read resolves an image block that image() accepts", async () => {
		const h = await createCodemodeHarness({ harness: { session: { tools: ["read", "codemode"] } } });
		const png = Buffer.from(
			"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
			"base64",
		);
		writeFileSync(join(h.cwd, "dot.png"), png);
		const result = await runScript(
			h,
			`const block = await tools.read({ path: "dot.png" }); image(block); return block.type`,
		);
		expect(result.isError).toBeFalsy();
		expect(result.text).toContain("image");
		expect((result.content as { type: string }[]).some((b) => b.type === "image")).toBe(true);
	});

	it("a failing text tool rejects with its text", async () => {
		const failing: AnyToolDefinition = {
			...sink,
			name: "fails",
			execute: async () => ({ content: [{ type: "text", text: "disk full" }], details: undefined, isError: true }),
		};
		const h = await createCodemodeHarness({ tools: [failing] });
		const result = await runScript(h, `try { await tools.fails({}) } catch (e) { return "caught " + e.message }`);
		expect(result.text).toContain("caught disk full");
	});
});
