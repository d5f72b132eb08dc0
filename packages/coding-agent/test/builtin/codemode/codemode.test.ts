import type { ExtensionAPI } from "@tau/coding-agent";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { codemodeReachesTools, createCodemodeExtension } from "../../../src/builtin/codemode/index.js";
import type { AnyToolDefinition } from "../../../src/core/extensions/index.js";
import { createHarness } from "../../agent-session/harness.js";
import { createCodemodeHarness, runScript } from "./harness.js";

function echoTool(
	name: string,
	exposure?: AnyToolDefinition["exposure"],
	extra: Partial<AnyToolDefinition> = {},
): AnyToolDefinition {
	return {
		name,
		label: name,
		description: `The ${name} tool`,
		parameters: Type.Object({ value: Type.Optional(Type.String()) }),
		...(exposure ? { exposure } : {}),
		execute: async (_id, params) => ({
			content: [{ type: "text", text: `${name}:${(params as { value?: string }).value ?? ""}` }],
			details: undefined,
		}),
		...extra,
	};
}

describe("registration", () => {
	it("registers a model-only codemode tool that is inactive by default", async () => {
		const h = await createHarness({ loader: { extensionFactories: [createCodemodeExtension()] } });
		const info = h.session.getAllTools().find((t) => t.name === "codemode")!;
		expect(info.exposure).toBe("model-only");
		expect(h.session.getActiveToolNames()).not.toContain("codemode");
		expect(h.session.getAllTools().find((t) => t.name === "codemode")!.description).toMatch(/raw JavaScript/);
		const activated = await createHarness({
			session: { tools: ["+codemode"] },
			loader: { extensionFactories: [createCodemodeExtension()] },
		});
		expect(activated.session.getActiveToolNames()).toContain("codemode");
	});

	it("reaches all tools when a discovery global appears, else the words of the script", () => {
		expect(codemodeReachesTools({ code: "await searchTools('x')" })).toBe("all");
		expect(codemodeReachesTools({ code: "ALL_TOOLS.length" })).toBe("all");
		expect(codemodeReachesTools({ code: "await tools.mcp__srv__echo({})" })).toEqual([
			"await",
			"tools",
			"mcp__srv__echo",
		]);
	});

	it("hides codemode and model-only tools such as tool_search from scripts", async () => {
		const h = await createCodemodeHarness({
			tools: [echoTool("tool_search", "model-only"), echoTool("helper", "codemode")],
		});
		const result = await runScript(h, `return ["codemode" in tools, "tool_search" in tools, "helper" in tools]`);
		expect(result.text).toContain("[false,false,true]");
	});
});

describe("execution and result format", () => {
	it("runs nested calls through the session with <parent>/N ids and parentToolCallId", async () => {
		const seen: { toolCallId: string; parent?: string }[] = [];
		const h = await createCodemodeHarness({
			tools: [echoTool("helper", "codemode")],
			extensions: [
				(pi: ExtensionAPI) => {
					pi.on("tool_call", (event) => {
						seen.push({
							toolCallId: event.toolCallId,
							parent: (event as { parentToolCallId?: string }).parentToolCallId,
						});
						return undefined;
					});
				},
			],
		});
		const result = await runScript(
			h,
			`const a = await tools.helper({ value: "1" }); const b = await tools.helper({ value: "2" }); return [a, b]`,
		);
		expect(result.isError).toBeFalsy();
		expect(result.text).toContain('["helper:1","helper:2"]');
		expect(seen.filter((s) => s.parent === "call_7").map((s) => s.toolCallId)).toEqual(["call_7/1", "call_7/2"]);
		expect(result.details.calls.map((c) => [c.id, c.name, c.status])).toEqual([
			["call_7/1", "helper", "ok"],
			["call_7/2", "helper", "ok"],
		]);
	});

	it("publishes call rows as updates while the script runs", async () => {
		const h = await createCodemodeHarness({ tools: [echoTool("helper", "codemode")] });
		await runScript(h, `await tools.helper({ value: "x".repeat(300) }); return 1`);
		const updates = h.events.flatMap((e) =>
			e.type === "tool_execution_update" && e.toolCallId === "call_7"
				? [
						(e as { partialResult: { details: { calls: { status: string; args: string }[] } } }).partialResult
							.details.calls,
					]
				: [],
		);
		expect(updates.map((calls) => calls.map((c) => c.status).join())).toEqual(["", "running", "ok"]);
		expect(updates[1]![0]!.args.length).toBeLessThanOrEqual(200);
	});

	it("rejects in the script when a tool_call handler blocks, and never runs the tool", async () => {
		let ran = 0;
		const h = await createCodemodeHarness({
			tools: [
				echoTool("helper", "codemode", {
					execute: async () => {
						ran++;
						return { content: [{ type: "text", text: "ran" }], details: undefined };
					},
				}),
			],
			extensions: [
				(pi: ExtensionAPI) => {
					pi.on("tool_call", (event) =>
						event.toolName === "helper" ? { block: true, reason: "not allowed here" } : undefined,
					);
				},
			],
		});
		const result = await runScript(h, `try { await tools.helper({}) } catch (e) { return "blocked: " + e.message }`);
		expect(result.text).toContain("blocked: not allowed here");
		expect(ran).toBe(0);
	});

	it("never executes a call with invalid arguments", async () => {
		let ran = 0;
		const h = await createCodemodeHarness({
			tools: [
				echoTool("helper", "codemode", {
					execute: async () => {
						ran++;
						return { content: [], details: undefined };
					},
				}),
			],
		});
		const result = await runScript(
			h,
			`try { await tools.helper({ value: { nested: [1] } }) } catch (e) { return "invalid" }`,
		);
		expect(result.text).toContain("invalid");
		expect(ran).toBe(0);
		expect(result.details.calls[0]).toMatchObject({ status: "error" });
	});

	it("resolves structured content for tools with an output schema, even on error", async () => {
		const structured: AnyToolDefinition = {
			...echoTool("exit_code", "codemode"),
			outputSchema: Type.Object({ exit_code: Type.Number() }),
			execute: async () => ({
				content: [{ type: "text", text: "failed" }],
				details: undefined,
				structuredContent: { exit_code: 3 },
				isError: true,
			}),
		};
		const h = await createCodemodeHarness({ tools: [structured] });
		const result = await runScript(h, `return await tools.exit_code({})`);
		expect(result.text).toContain('{"exit_code":3}');
	});

	it("formats numbered text items, one trailing console block and the returned value", async () => {
		const h = await createCodemodeHarness();
		const result = await runScript(
			h,
			`text("first"); console.log("log 1"); text("second"); console.log("log 2"); return { done: true }`,
		);
		expect(result.text).toMatch(/^Script completed\nWall time \d+\.\d seconds\nOutput:\n/);
		expect(result.text).toContain(
			'==> text 1/3 <==\nfirst\n==> text 2/3 <==\nsecond\n==> text 3/3 <==\n{"done":true}',
		);
		expect(result.text).toMatch(/<console_output>\nlog 1\nlog 2\n<\/console_output>$/);
		expect(result.text.match(/<console_output>/g)).toHaveLength(1);
	});

	it("lists calls made before a failure and marks the result as an error", async () => {
		const h = await createCodemodeHarness({ tools: [echoTool("helper", "codemode")] });
		const failed = await runScript(h, `await tools.helper({}); throw new Error("broken")`);
		expect(failed.isError).toBe(true);
		expect(failed.text).toMatch(/^Script failed/);
		expect(failed.text).toContain("Script error:\nError: broken");
		expect(failed.text).toMatch(/helper \(ok\)/);
		expect(failed.text).toMatch(/not undone/);
		const none = await runScript(h, `throw new Error("early")`);
		expect(none.text).toMatch(/no tool calls were made/);
	});

	it("reports a timed-out script with the timeout text", async () => {
		const h = await createCodemodeHarness();
		// The deadline includes worker start-up, so under load the script may time out before its first line.
		const result = await runScript(h, `// @options: {"timeout_ms": 300}\nwhile (true) {}`);
		expect(result.isError).toBe(true);
		expect(result.text).toMatch(/^Script failed\nWall time \d+\.\d seconds\nOutput:\n/);
		expect(result.text).toMatch(
			/Script error:\nScript timed out: Execution timed out after \d+ ms\n\n.*no tool calls were made/,
		);
	});

	it("truncates output over max_output_tokens and saves the full text", async () => {
		const { existsSync, readFileSync } = await import("node:fs");
		const h = await createCodemodeHarness();
		const result = await runScript(
			h,
			`// @options: {"max_output_tokens": 100}\nfor (let i = 0; i < 200; i++) text("line " + i)`,
		);
		expect(result.text).toMatch(/tokens truncated/);
		expect(result.text).toContain("line 0");
		expect(result.text).toContain("line 199");
		const path = result.details.fullOutputPath!;
		expect(existsSync(path)).toBe(true);
		expect(readFileSync(path, "utf8")).toContain("line 100");
		expect(result.text).toContain(`[Full output: ${path} (read with offset/limit)]`);
	});

	it("saves images and labels them right before the image block", async () => {
		const { existsSync } = await import("node:fs");
		const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString("base64");
		const h = await createCodemodeHarness();
		const result = await runScript(h, `text("before"); image("data:image/png;base64,${png}")`);
		const blocks = result.content as { type: string; text?: string; data?: string }[];
		const imageIndex = blocks.findIndex((b) => b.type === "image");
		expect(imageIndex).toBeGreaterThan(0);
		const label = blocks[imageIndex - 1]!.text!;
		const path = /\[Image: (\S+) \(image\/png/.exec(label)?.[1];
		expect(path && existsSync(path)).toBe(true);
		expect(path?.endsWith(".png")).toBe(true);
	});

	it("fails source errors before running anything", async () => {
		const h = await createCodemodeHarness();
		const result = await runScript(h, `a()\n// @options: {"timeout_ms": 5}\nb()`);
		expect(result.isError).toBe(true);
		expect(result.text).toMatch(/line 2/);
	});
});
