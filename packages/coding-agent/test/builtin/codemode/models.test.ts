import { CodemodeSandbox } from "@tau/codemode";
import { afterEach, describe, expect, it } from "vitest";
import { executeCodemode } from "../../../src/builtin/codemode/executor.js";
import { ModelCallTally, modelsGlobals } from "../../../src/builtin/codemode/models.js";
import { CallRows } from "../../../src/builtin/codemode/nested-tools.js";
import { CodemodeWorkerPool } from "../../../src/builtin/codemode/worker-pool.js";
import { createCodemodeHarness, runScript } from "./harness.js";

const usage = (total: number) => ({
	input: 1,
	output: 2,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 3,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total },
});

const MODELS = [
	{
		provider: "acme",
		id: "judge",
		type: "classifier",
		api: "acme-classify",
		name: "Judge",
		headers: { Authorization: "secret" },
		contextWindow: 1000,
	},
	{ provider: "acme", id: "painter", type: "image", api: "acme-images", name: "Painter", output: ["image"] },
	{
		provider: "acme",
		id: "chatty",
		api: "acme-chat",
		name: "Chatty",
		reasoning: false,
		contextWindow: 1000,
		maxTokens: 100,
	},
];

function fakeRegistry(classify: (model: unknown, context: unknown) => Promise<unknown>) {
	return {
		find: (provider: string, id: string) => MODELS.find((m) => m.provider === provider && m.id === id),
		getAll: () => MODELS,
		getAvailable: () => MODELS.filter((m) => m.id !== "painter"),
		hasConfiguredAuth: () => true,
		classify,
	};
}

const sandboxes: CodemodeSandbox[] = [];
afterEach(async () => {
	await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

function setup(classify: (model: unknown, context: unknown) => Promise<unknown>) {
	const rows = new CallRows(() => {});
	const tally = new ModelCallTally();
	const sandbox = new CodemodeSandbox({
		timeoutMs: 15_000,
		models: modelsGlobals(fakeRegistry(classify) as never, rows, "call_1", tally),
	});
	sandboxes.push(sandbox);
	return { rows, tally, sandbox };
}

const question = `{ ok: { type: "bool", instructions: "Is it fine?", criteria: { true: "yes", false: "no" } } }`;

describe("models.*", () => {
	it("lists models by type without headers", async () => {
		const { sandbox } = setup(async () => ({}));
		const result = await sandbox.execute(`return {
			classifiers: await models.getModelsOfType("classifier"),
			available: (await models.getAvailableOfType("image")).length,
			one: await models.getModelOfType("image", "acme", "painter"),
			wrongType: String(await models.getModelOfType("chat", "acme", "painter")),
		}`);
		expect(result.ok).toBe(true);
		const value = (
			result as {
				value: { classifiers: Record<string, unknown>[]; available: number; one: unknown; wrongType: string };
			}
		).value;
		expect(value.classifiers).toHaveLength(1);
		expect(value.classifiers[0]).not.toHaveProperty("headers");
		expect(value.classifiers[0]).toMatchObject({ provider: "acme", id: "judge", type: "classifier" });
		expect(value.available).toBe(0);
		expect(value.one).toMatchObject({ id: "painter" });
		expect(value.wrongType).toBe("undefined");
	});

	it("rejects unknown models, wrong model types and malformed contexts with descriptive errors", async () => {
		let called = 0;
		const { sandbox } = setup(async () => {
			called++;
			return {};
		});
		const result = await sandbox.execute(`
			const errors = [];
			const attempt = async (f) => { try { await f(); errors.push("ok") } catch (e) { errors.push(e.message) } };
			await attempt(() => models.classify({ provider: "acme", id: "nope" }, { state: {}, questions: ${question} }));
			await attempt(() => models.classify({ provider: "acme", id: "chatty" }, { state: {}, questions: ${question} }));
			await attempt(() => models.classify({ provider: "acme", id: "judge" }, { state: "text", questions: ${question} }));
			await attempt(() => models.classify({ provider: "acme", id: "judge" }, { state: {}, questions: { q: { type: "score", instructions: "x", criteria: "bad" } } }));
			await attempt(() => models.classify("acme/judge", { state: {}, questions: ${question} }));
			await attempt(() => models.getModelsOfType("video"));
			return errors;
		`);
		const errors = (result as { value: string[] }).value;
		expect(errors[0]).toMatch(/unknown model acme\/nope/);
		expect(errors[1]).toMatch(/chat model, not a classifier/);
		expect(errors[2]).toMatch(/context\.state/);
		expect(errors[3]).toMatch(/context\.questions\.q.*"score" with criteria string\[\]/);
		expect(errors[4]).toMatch(/\{ provider: string, id: string \}/);
		expect(errors[5]).toMatch(/type must be one of/);
		expect(called).toBe(0);
	});

	it("runs at most 4 classify calls at once, reports rows and sums usage", async () => {
		let active = 0;
		let peak = 0;
		let started = 0;
		const waiting: (() => void)[] = [];
		const { sandbox, rows, tally } = setup(async () => {
			active++;
			started++;
			peak = Math.max(peak, active);
			// Calls finish only once four are in flight (or the last ones arrived), so a missing limit shows as a higher peak.
			await new Promise<void>((resolve) => {
				waiting.push(resolve);
				if (waiting.length === 4 || started === 10) for (const r of waiting.splice(0)) r();
			});
			active--;
			return { stopReason: "stop", answers: {}, usage: usage(0.5) };
		});
		const result = await sandbox.execute(`
			const calls = Array.from({ length: 10 }, () => models.classify({ provider: "acme", id: "judge", baseUrl: "http://evil" }, { state: {}, questions: ${question} }));
			return (await Promise.all(calls)).map((r) => r.stopReason);
		`);
		expect((result as { value: string[] }).value).toEqual(Array(10).fill("stop"));
		expect(peak).toBe(4);
		expect(rows.rows).toHaveLength(10);
		expect(rows.rows[0]).toMatchObject({
			id: "call_1/models.classify/1",
			name: "models.classify",
			args: '"acme/judge"',
			status: "ok",
			cost: 0.5,
		});
		expect(tally.usage?.cost.total).toBe(5);
		expect(tally.usage?.input).toBe(10);
	});

	it("reports provider failures through stopReason, not exceptions", async () => {
		const { sandbox, rows } = setup(async () => ({ stopReason: "error", errorMessage: "rate limited", answers: {} }));
		const result = await sandbox.execute(
			`const r = await models.classify({ provider: "acme", id: "judge" }, { state: {}, questions: ${question} }); return [r.stopReason, r.errorMessage]`,
		);
		expect((result as { value: unknown }).value).toEqual(["error", "rate limited"]);
		expect(rows.rows[0]).toMatchObject({ status: "error", error: "rate limited" });
	});
});

describe("models.* in a session", () => {
	it("is available to scripts and explains a chat model cannot be used", async () => {
		const h = await createCodemodeHarness();
		const result = await runScript(
			h,
			`const chats = await models.getModelsOfType("chat");
			try { await models.classify({ provider: chats[0].provider, id: chats[0].id }, {}) } catch (e) { return [chats.length > 0, "headers" in chats[0], e.message] }`,
		);
		expect(result.text).toMatch(/\[true,false,".*chat model, not a classifier model"\]/);
	});

	it("is absent when models are off", async () => {
		const h = await createCodemodeHarness({ codemode: { models: false } });
		expect((await runScript(h, `return typeof models`)).text).toContain("\nundefined");
	});
});

describe("models.* on the codemode result", () => {
	const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString("base64");

	/** Runs one script through the codemode executor over a fake registry that classifies and paints. */
	function execute(code: string) {
		const registry = {
			...fakeRegistry(async () => ({ stopReason: "stop", answers: {}, usage: usage(0.25) })),
			generateImages: async () => ({
				stopReason: "stop",
				output: [{ type: "image", data: PNG, mimeType: "image/png" }],
				usage: usage(1),
			}),
		};
		return executeCodemode({
			toolCallId: "call_1",
			code,
			signal: undefined,
			onUpdate: undefined,
			ctx: { tools: [], modelRegistry: registry, sessionManager: { getBranch: () => [] } } as never,
			pi: { getAllTools: () => [], appendEntry: () => {} } as never,
			pool: new CodemodeWorkerPool(() => 2),
			models: true,
		});
	}

	const text = (result: Awaited<ReturnType<typeof execute>>) =>
		result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");

	it("adds the usage of every models call to the tool result", async () => {
		const result = await execute(`
			const judge = { provider: "acme", id: "judge" };
			const context = { state: {}, questions: ${question} };
			await models.classify(judge, context);
			await models.classify(judge, context);
			const painted = await models.generateImages({ provider: "acme", id: "painter" }, { input: [{ type: "text", text: "a dot" }] });
			image(painted.output[0]);
		`);
		expect(result.isError).toBeFalsy();
		expect(result.usage?.cost.total).toBe(1.5);
		expect(result.usage?.input).toBe(3);
		expect(text(result)).not.toMatch(/did not show/);
	});

	it("notes generated images the script never showed", async () => {
		const result = await execute(
			`await models.generateImages({ provider: "acme", id: "painter" }, { input: [{ type: "text", text: "a dot" }] })`,
		);
		expect(text(result)).toMatch(
			/produced 1 image\(s\) that this script did not show; pass each image block to image\(block\)/,
		);
		expect(result.usage?.cost.total).toBe(1);
	});
});
