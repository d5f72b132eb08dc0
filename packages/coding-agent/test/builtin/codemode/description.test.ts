import type { ToolExposure } from "@tau/coding-agent";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { codemodeDescription } from "../../../src/builtin/codemode/description.js";
import { resolutionSummary } from "../../../src/builtin/codemode/loadout.js";
import type { ScriptToolInfo } from "../../../src/builtin/codemode/samples.js";
import type { AnyToolDefinition } from "../../../src/core/extensions/index.js";
import { createCodemodeHarness, runScript } from "./harness.js";

function info(name: string, namespace?: string, description = `Does ${name} things`): ScriptToolInfo {
	return {
		name,
		jsName: name.replace(/[^A-Za-z0-9_$]/g, "_"),
		description,
		parameters: { type: "object", properties: { q: { type: "string" } } },
		guidelines: [],
		...(namespace ? { namespace: { name: namespace, description: `${namespace} tools` } } : {}),
	};
}

function tool(
	name: string,
	exposure: ToolExposure,
	namespace?: string,
	extra: Partial<AnyToolDefinition> = {},
): AnyToolDefinition {
	return {
		name,
		label: name,
		description: `The ${name} tool`,
		parameters: Type.Object({ q: Type.Optional(Type.String()) }),
		exposure,
		...(namespace
			? {
					namespace: {
						name: namespace,
						aliases: [namespace.replace(/^(ns_|mcp__)/, "")],
						description: `About ${namespace}`,
						instructions: `Use ${namespace} wisely`,
					},
				}
			: {}),
		execute: async (_id, params) => ({
			content: [{ type: "text", text: `${name}:${(params as { q?: string }).q ?? ""}` }],
			details: undefined,
		}),
		...extra,
	};
}

describe("codemode description", () => {
	const forty = [
		...Array.from({ length: 10 }, (_, i) => info(`plain_${i}`)),
		...Array.from({ length: 10 }, (_, i) => info(`alpha_${i}`, "alpha")),
		...Array.from({ length: 10 }, (_, i) => info(`beta_${i}`, "beta")),
		...Array.from({ length: 10 }, (_, i) => info(`gamma_${i}`, "gamma", `Gamma ${i} ${"long text ".repeat(i * 20)}`)),
	];

	it("represents every namespace within the budget and marks partial ones", () => {
		const text = codemodeDescription(forty, { inlineBudget: 3000, models: false });
		for (const ns of ["alpha", "beta", "gamma"])
			expect(text).toMatch(new RegExp(`## ${ns}( \\(some tools not listed\\))?\\n`));
		expect(text).toMatch(/## \w+ \(some tools not listed\)/);
		expect(text).toContain("### `alpha_0`");
		expect(text).toContain("### `gamma_0`");
		expect(text).toContain("### `plain_0`");
		expect(text.indexOf("## alpha")).toBeLessThan(text.indexOf("## beta"));
		const all = codemodeDescription(forty, { models: false });
		expect(all).not.toMatch(/\(some tools not listed\)|\(tools not listed\)/);
		expect(all).toContain("### `gamma_9`");
	});

	it("shows only namespace headings with budget 0", () => {
		const text = codemodeDescription(forty, { inlineBudget: 0, models: false });
		expect(text).toContain("## alpha (tools not listed)\n\nalpha tools");
		expect(text).not.toContain("### `");
	});

	it("points to docs/codemode.md only when models are on", () => {
		expect(codemodeDescription([], { models: true })).toContain("docs/codemode.md");
		expect(codemodeDescription([], { models: false })).not.toContain("docs/codemode.md");
	});

	it("summarises what a direct tool resolves to in scripts", () => {
		expect(resolutionSummary({ name: "edit" }, "edit")).toBe("a string");
		expect(
			resolutionSummary(
				{
					name: "bash",
					outputSchema: {
						type: "object",
						properties: {
							output: { type: "string" },
							exit_code: { type: "number" },
							full_output_path: { type: "string" },
							kind: { const: "shell" },
						},
						required: ["output", "exit_code", "kind"],
					},
				},
				"bash",
			),
		).toBe('{ output, exit_code, full_output_path?, kind: "shell" }');
		expect(
			resolutionSummary(
				{
					name: "read",
					outputSchema: {
						anyOf: [
							{ type: "string" },
							{ type: "object", properties: { type: { const: "image" } }, required: ["type"] },
						],
					},
				},
				"read",
			),
		).toBe('`string | { type: "image" }`');
	});
});

describe("loadout modes in a session", () => {
	const tools = [
		tool("listed_helper", "codemode"),
		tool("mcp__docs__search", "deferred", "ns_docs"),
		tool("mcp__dev-radius__ping", "deferred", "mcp__dev-radius"),
	];

	it("on: lists codemode tools, never deferred ones, and annotates direct declarations", async () => {
		const h = await createCodemodeHarness({ tools });
		await runScript(h, "return 1");
		const declared = h.requestTools[0]!;
		const codemode = declared.find((t) => t.name === "codemode")!.description;
		expect(codemode).toContain("### `listed_helper`");
		expect(codemode).not.toContain("mcp__docs__search");
		expect(declared.find((t) => t.name === "read")!.description).toMatch(/tools\.read\(args\)/);
	});

	it("stays byte-identical when deferred tools register later", async () => {
		const h = await createCodemodeHarness({ tools: [tool("listed_helper", "codemode")] });
		await runScript(h, "return 1");
		const before = h.requestTools[0]!.find((t) => t.name === "codemode")!.description;
		h.api.registerTool(tool("mcp__late__x", "deferred", "mcp__late"));
		await runScript(h, "return 2");
		expect(h.requestTools.at(-1)!.find((t) => t.name === "codemode")!.description).toBe(before);
	});

	it("only: hides direct declarations from requests while they stay active and callable", async () => {
		const h = await createCodemodeHarness({
			tools,
			codemode: { mode: "only" },
			harness: { session: { tools: ["read", "codemode"] } },
		});
		const { writeFileSync } = await import("node:fs");
		writeFileSync(`${h.cwd}/note.txt`, "hello from file");
		const result = await runScript(h, `return await tools.read({ path: "note.txt" })`);
		expect(result.text).toContain("hello from file");
		expect(h.requestTools[0]!.map((t) => t.name)).not.toContain("read");
		expect(h.session.getActiveToolNames()).toContain("read");
		expect(h.requestTools[0]!.find((t) => t.name === "codemode")!.description).toContain("### `read`");
	});
});

describe("discovery globals", () => {
	const tools = [
		tool("listed_helper", "codemode"),
		tool("mcp__docs__search", "deferred", "ns_docs"),
		tool("mcp__dev_radius__ping", "deferred", "mcp__dev-radius"),
	];

	it("ALL_TOOLS includes deferred tools; searchTools accepts namespace aliases in any form", async () => {
		const h = await createCodemodeHarness({ tools });
		const result = await runScript(
			h,
			`const names = ALL_TOOLS.map((t) => t.name);
			const a = await searchTools("ping", { namespace: "dev-radius" });
			const b = await searchTools("ping", { namespace: "mcp__dev_radius" });
			const c = await searchTools("ping", { namespace: "mcp__dev-radius" });
			const wrong = await searchTools("ping", { namespace: "ns_docs" });
			let bad; try { await searchTools("") } catch (e) { bad = e.message }
			let badLimit; try { await searchTools("x", { limit: 0 }) } catch (e) { badLimit = e.message }
			return { names, a: a.map((t) => t.name), same: JSON.stringify(a) === JSON.stringify(b) && JSON.stringify(b) === JSON.stringify(c), wrong: wrong.length, bad, badLimit, sample: a[0].description }`,
		);
		const value = JSON.parse(result.text.slice(result.text.indexOf("{"))) as Record<string, unknown>;
		expect(value.names).toEqual(
			expect.arrayContaining(["listed_helper", "mcp__docs__search", "mcp__dev_radius__ping"]),
		);
		expect(value.a).toEqual(["mcp__dev_radius__ping"]);
		expect(value.same).toBe(true);
		expect(value.wrong).toBe(0);
		expect(value.bad).toMatch(/query/);
		expect(value.badLimit).toMatch(/limit/);
		expect(value.sample).toContain(
			"declare const tools: { mcp__dev_radius__ping(args: { q?: string }): Promise<string>; };",
		);
	});

	it("describeTool takes raw names or identifiers and describeNamespace returns instructions", async () => {
		const h = await createCodemodeHarness({ tools: [...tools, tool("dash-name", "codemode")] });
		const result = await runScript(
			h,
			`return {
				raw: await describeTool("dash-name"),
				js: await describeTool("dash_name"),
				missing: String(await describeTool("nope")),
				ns: await describeNamespace("docs"),
				nsMissing: String(await describeNamespace("nothing")),
			}`,
		);
		const value = JSON.parse(result.text.slice(result.text.indexOf("{"))) as Record<string, unknown>;
		expect(value.raw).toBe(value.js);
		expect(value.raw).toContain("The dash-name tool");
		expect(value.missing).toBe("undefined");
		expect(value.ns).toEqual({
			name: "ns_docs",
			description: "About ns_docs",
			instructions: "Use ns_docs wisely",
			tools: ["mcp__docs__search"],
		});
		expect(value.nsMissing).toBe("undefined");
	});
});
