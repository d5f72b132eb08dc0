import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentTool, type AgentToolResult, runToolCall } from "@tau/agent";
import { type AssistantMessage, zeroUsage } from "@tau/ai";
import { type ExtensionAPI, ExtensionRunner, type ExtensionToolContext, type ToolDefinition } from "@tau/coding-agent";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import {
	extensionToolToAgentTool,
	loadExtensionItems,
	NESTED_CALL_LIMITS,
	NestedToolCallExecutor,
} from "../../src/core/extensions/index.js";
import { bindFakeSession } from "./fake-session.js";
import { inlineExtension } from "./inline-extension.js";

const cwd = mkdtempSync(join(tmpdir(), "tau-ext-nested-"));
const assistant = { role: "assistant", content: [], stopReason: "toolUse" } as unknown as AssistantMessage;

function text(value: string): AgentToolResult<undefined> {
	return { content: [{ type: "text", text: value }], details: undefined };
}

/**
 * A session double wiring the runner into `@tau/agent`'s tool pipeline the way AgentSession does:
 * `tool_call` gates nested calls, events reach extensions, tools get per-call contexts.
 */
async function setup(
	definitions: ToolDefinition<any, any>[],
	register?: (pi: ExtensionAPI) => void,
	sequential = false,
) {
	const result = await loadExtensionItems({
		cwd,
		items: [
			inlineExtension("ext", (pi) => {
				for (const definition of definitions) pi.registerTool(definition);
				register?.(pi);
			}),
		],
	});
	const runner = new ExtensionRunner({ extensions: result.extensions, runtime: result.runtime, cwd });
	bindFakeSession(runner);
	const events: { type: string; toolCallId: string; parentToolCallId?: string }[] = [];
	let tools: AgentTool<any>[] = [];
	const nested = new NestedToolCallExecutor({
		callableTools: () => tools,
		assistantMessage: () => assistant,
		sequentialExecution: () => sequential,
		emit: async (event) => {
			events.push(event);
			await runner.emit(event as never);
		},
		runToolCall: (toolCall, options) =>
			runToolCall(toolCall, {
				tools: options.tools,
				assistantMessage: options.assistantMessage,
				context: { systemPrompt: "", messages: [], tools: [] } as never,
				signal: options.signal,
				onUpdate: options.onUpdate,
				beforeToolCall: async ({ args }) => {
					const decision = await runner.emitToolCall({
						type: "tool_call",
						toolCallId: toolCall.id,
						parentToolCallId: options.parentToolCallId,
						toolName: toolCall.name,
						input: args as Record<string, unknown>,
					});
					return decision.block ? { block: true, reason: decision.reason } : undefined;
				},
			}),
	});
	const contextFor = (id: string, signal: AbortSignal | undefined): ExtensionToolContext =>
		runner.createToolContext(id, signal, nested);
	tools = runner.getTools().map((tool) => extensionToolToAgentTool(tool.definition, contextFor));
	const call = (name: string, args: Record<string, unknown>, id = "root") => {
		const tool = tools.find((candidate) => candidate.name === name);
		if (!tool) throw new Error(`no tool ${name}`);
		return tool.execute(id, args);
	};
	return { runner, nested, events, call };
}

const echo: ToolDefinition<any, any> = {
	name: "echo",
	label: "echo",
	description: "echo",
	parameters: Type.Object({ value: Type.String() }),
	async execute(_id, params: { value: string }) {
		return { ...text(params.value), usage: { ...zeroUsage(), input: 1, totalTokens: 1 } };
	},
};

function orchestrator(run: (ctx: ExtensionToolContext) => Promise<string>): ToolDefinition<any, any> {
	return {
		name: "orchestrate",
		label: "orchestrate",
		description: "calls other tools",
		parameters: Type.Object({}),
		async execute(_id, _params, _signal, _onUpdate, ctx) {
			return text(await run(ctx));
		},
	};
}

describe("ctx.executeTool", () => {
	it("numbers nested ids per caller, nests deeper ids, and tags events with the immediate parent", async () => {
		const inner: ToolDefinition<any, any> = {
			...echo,
			name: "inner",
			parameters: Type.Object({}),
			async execute(_id, _params, _signal, _onUpdate, ctx) {
				const outcome = await ctx.executeTool("echo", { value: "deep" });
				return text(outcome.toolCall.id);
			},
		};
		const ids: string[] = [];
		const { call, events } = await setup([
			echo,
			inner,
			orchestrator(async (ctx) => {
				ids.push((await ctx.executeTool("inner", {})).toolCall.id);
				ids.push((await ctx.executeTool("echo", { value: "x" })).toolCall.id);
				return "done";
			}),
		]);
		await call("orchestrate", {});
		expect(ids).toEqual(["root/1", "root/2"]);
		expect(events.filter((event) => event.type === "tool_execution_start")).toEqual([
			expect.objectContaining({ toolCallId: "root/1", parentToolCallId: "root" }),
			expect.objectContaining({ toolCallId: "root/1/1", parentToolCallId: "root/1" }),
			expect.objectContaining({ toolCallId: "root/2", parentToolCallId: "root" }),
		]);
	});

	it("tool_call blocks nested calls (error outcome, no throw) and sees parentToolCallId", async () => {
		const gateSaw: (string | undefined)[] = [];
		let outcome: unknown;
		const { call } = await setup(
			[
				echo,
				orchestrator(async (ctx) => {
					outcome = await ctx.executeTool("echo", { value: "x" });
					return "done";
				}),
			],
			(pi) =>
				pi.on("tool_call", (event) => {
					gateSaw.push(event.parentToolCallId);
					return { block: true, reason: "nested calls are not allowed" };
				}),
		);
		await call("orchestrate", {});
		expect(gateSaw).toEqual(["root"]);
		expect(outcome).toMatchObject({
			isError: true,
			result: { content: [{ type: "text", text: "nested calls are not allowed" }] },
		});
	});

	it("unknown tools give an error outcome; hosts without nested support answer <caller>/0", async () => {
		let outcome: unknown;
		const { call, runner } = await setup([
			orchestrator(async (ctx) => {
				outcome = await ctx.executeTool("missing", {});
				return "done";
			}),
		]);
		await call("orchestrate", {});
		expect(outcome).toMatchObject({
			isError: true,
			result: { content: [{ type: "text", text: "Tool missing not found" }] },
		});
		const plain = await runner.createToolContext("caller", undefined).executeTool("echo", {});
		expect(plain).toMatchObject({
			toolCall: { id: "caller/0" },
			isError: true,
			result: { content: [{ type: "text", text: "Nested tool calls are not available in this context" }] },
		});
	});

	it("sums nested usage onto the root and bounds the record without bounding execution", async () => {
		const failing: ToolDefinition<any, any> = {
			...echo,
			name: "fail",
			async execute() {
				throw new Error("x".repeat(900));
			},
		};
		let executed = 0;
		const counting: ToolDefinition<any, any> = {
			...echo,
			name: "count",
			parameters: Type.Object({ blob: Type.Optional(Type.String()) }),
			async execute() {
				executed++;
				return { ...text("ok"), usage: { ...zeroUsage(), output: 2, totalTokens: 2 } };
			},
		};
		const { call, nested } = await setup([
			echo,
			failing,
			counting,
			orchestrator(async (ctx) => {
				await ctx.executeTool("count", { blob: "a".repeat(9 * 1024) });
				for (let i = 0; i < 5; i++) await ctx.executeTool("count", { blob: "b".repeat(7 * 1024) });
				await ctx.executeTool("fail", { value: "v" });
				for (let i = 0; i < NESTED_CALL_LIMITS.maxCalls; i++) await ctx.executeTool("count", {});
				return "done";
			}),
		]);
		await call("orchestrate", {});
		const total = 1 + 5 + NESTED_CALL_LIMITS.maxCalls;
		expect(executed).toBe(total);
		const { nestedCalls, usage } = nested.rootResult("root", { ...zeroUsage(), input: 5, totalTokens: 5 });
		expect(usage).toMatchObject({ input: 5, output: total * 2, totalTokens: 5 + total * 2 });
		expect(nestedCalls?.complete).toBe(false);
		expect(nestedCalls?.calls).toHaveLength(NESTED_CALL_LIMITS.maxCalls);
		const [big, ...rest] = nestedCalls?.calls ?? [];
		expect(big).toMatchObject({ id: "root/1", status: "ok", argumentsBytes: expect.any(Number) });
		expect(big).not.toHaveProperty("arguments");
		// Four 7 KiB argument objects fit in the 32 KiB total; the fifth would exceed it.
		expect(rest.slice(0, 5).map((record) => "arguments" in record)).toEqual([true, true, true, true, false]);
		expect(rest[4]?.argumentsBytes).toBe(7 * 1024 + '{"blob":""}'.length);
		const failed = nestedCalls?.calls.find((record) => record.name === "fail");
		expect(failed?.status).toBe("error");
		expect(failed?.error).toHaveLength(NESTED_CALL_LIMITS.maxErrorChars);
	});

	it("serializes exclusive nested calls and lets calls nested under them run without deadlock", async () => {
		const log: string[] = [];
		let releaseFirst!: () => void;
		const gate = new Promise<void>((resolve) => (releaseFirst = resolve));
		const slow: ToolDefinition<any, any> = {
			...echo,
			name: "slow",
			executionMode: "sequential",
			async execute(id, params: { value: string }, _signal, _onUpdate, ctx) {
				log.push(`start ${params.value}`);
				if (params.value === "first") {
					const innerOutcome = await ctx.executeTool("slow-inner", { value: "inner" });
					log.push(`inner ${innerOutcome.isError ? "error" : "ok"}`);
					await gate;
				}
				log.push(`end ${params.value}`);
				return text(id);
			},
		};
		const slowInner: ToolDefinition<any, any> = { ...echo, name: "slow-inner", executionMode: "sequential" };
		const { call } = await setup([
			slow,
			slowInner,
			orchestrator(async (ctx) => {
				const first = ctx.executeTool("slow", { value: "first" });
				const second = ctx.executeTool("slow", { value: "second" });
				await Promise.resolve();
				await new Promise((resolve) => setImmediate(resolve));
				releaseFirst();
				await Promise.all([first, second]);
				return "done";
			}),
		]);
		await call("orchestrate", {});
		expect(log).toEqual(["start first", "inner ok", "end first", "start second", "end second"]);
	});
});
