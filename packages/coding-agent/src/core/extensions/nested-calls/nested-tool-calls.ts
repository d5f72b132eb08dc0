import type {
	AgentTool,
	AgentToolCall,
	AgentToolCallOutcome,
	AgentToolResult,
	AgentToolUpdateCallback,
} from "@tau/agent";
import type { AssistantMessage, JsonObject, Usage } from "@tau/ai";
import { addUsage } from "@tau/ai";
import type { ToolExecutionEndEvent, ToolExecutionStartEvent, ToolExecutionUpdateEvent } from "../api/events.js";
import { ExclusiveQueue } from "./exclusive-queue.js";
import { NestedCallRecorder, type NestedToolCalls } from "./nested-call-record.js";

export const NO_ASSISTANT_MESSAGE = "No assistant message issued this call";
export const NESTED_CALLS_UNAVAILABLE = "Nested tool calls are not available in this context";

/** What nested calls need from the session. */
export interface NestedCallHost {
	/** The callable set: active `direct` tools plus all `codemode` and `deferred` tools. */
	callableTools(): readonly AgentTool<any>[];
	/** The assistant message of the current turn, if any. */
	assistantMessage(): AssistantMessage | undefined;
	/**
	 * Runs one call through the model-call pipeline (prepare, validate, `tool_call`, execute,
	 * `tool_result`) with `parentToolCallId` on the gate and middleware events; never rejects.
	 */
	runToolCall(
		toolCall: AgentToolCall,
		options: {
			tools: readonly AgentTool<any>[];
			assistantMessage: AssistantMessage;
			parentToolCallId: string;
			signal: AbortSignal | undefined;
			onUpdate: (partial: AgentToolResult<any>) => Promise<void>;
		},
	): Promise<AgentToolCallOutcome>;
	/** Delivers `tool_execution_*` events: extensions first, then session subscribers. */
	emit(event: ToolExecutionStartEvent | ToolExecutionUpdateEvent | ToolExecutionEndEvent): Promise<void>;
	/** True when the agent executes tool batches sequentially (every nested call is then exclusive). */
	sequentialExecution(): boolean;
}

interface RootState {
	recorder: NestedCallRecorder;
	usage: Usage | undefined;
}

function rootOf(callId: string): string {
	const slash = callId.indexOf("/");
	return slash < 0 ? callId : callId.slice(0, slash);
}

/** An error outcome of a nested call that never ran. */
export function nestedErrorOutcome(id: string, name: string, args: unknown, text: string): AgentToolCallOutcome {
	return {
		toolCall: { type: "toolCall", id, name, arguments: (args ?? {}) as JsonObject },
		result: { content: [{ type: "text", text }], details: {} },
		isError: true,
	};
}

function errorTextOf(result: AgentToolResult<any>): string {
	return result.content
		.filter((part): part is { type: "text"; text: string } => part.type === "text")
		.map((part) => part.text)
		.join("\n");
}

/**
 * `ctx.executeTool`: runs tools on behalf of a calling tool with ids `<caller>/N`, emits their
 * execution events with `parentToolCallId`, serializes exclusive calls, and keeps a bounded record and
 * the summed usage per root model-issued call. Nested calls add nothing to the transcript.
 */
export class NestedToolCallExecutor {
	private readonly counters = new Map<string, number>();
	private readonly roots = new Map<string, RootState>();
	private readonly queue = new ExclusiveQueue();

	constructor(private readonly host: NestedCallHost) {}

	async executeTool(
		callerId: string,
		name: string,
		args: unknown,
		options: { signal?: AbortSignal; onUpdate?: AgentToolUpdateCallback } = {},
		callerSignal?: AbortSignal,
	): Promise<AgentToolCallOutcome> {
		const index = (this.counters.get(callerId) ?? 0) + 1;
		this.counters.set(callerId, index);
		const id = `${callerId}/${index}`;
		const root = this.rootState(callerId);
		const assistantMessage = this.host.assistantMessage();
		if (!assistantMessage) return nestedErrorOutcome(id, name, args, NO_ASSISTANT_MESSAGE);

		const tools = this.host.callableTools();
		const tool = tools.find((candidate) => candidate.name === name);
		const exclusive = this.host.sequentialExecution() || tool?.executionMode === "sequential";
		const signal = options.signal ?? callerSignal;
		const run = async () => {
			root.recorder.start(id, name, args);
			await this.host.emit({
				type: "tool_execution_start",
				toolCallId: id,
				parentToolCallId: callerId,
				toolName: name,
				args,
			});
			const outcome = await this.host.runToolCall(
				{ type: "toolCall", id, name, arguments: (args ?? {}) as JsonObject },
				{
					tools,
					assistantMessage,
					parentToolCallId: callerId,
					signal,
					onUpdate: async (partialResult) => {
						await this.host.emit({
							type: "tool_execution_update",
							toolCallId: id,
							parentToolCallId: callerId,
							toolName: name,
							args,
							partialResult,
						});
						options.onUpdate?.(partialResult);
					},
				},
			);
			const finished: { isError: boolean; durationMs?: number; errorText?: string } = { isError: outcome.isError };
			if (outcome.durationMs !== undefined) finished.durationMs = outcome.durationMs;
			if (outcome.isError) finished.errorText = errorTextOf(outcome.result);
			root.recorder.finish(id, finished);
			if (outcome.result.usage) root.usage = addUsage(root.usage, outcome.result.usage);
			const end: ToolExecutionEndEvent = {
				type: "tool_execution_end",
				toolCallId: id,
				parentToolCallId: callerId,
				toolName: name,
				result: outcome.result,
				isError: outcome.isError,
			};
			if (outcome.durationMs !== undefined) end.durationMs = outcome.durationMs;
			await this.host.emit(end);
			return outcome;
		};
		return exclusive ? this.queue.run(id, run) : run();
	}

	/**
	 * What the root call's tool-result message carries: the bounded `nestedCalls` record and the
	 * usage of every nested result (all depths, recorded or not) added to the tool's own usage.
	 */
	rootResult(rootId: string, ownUsage: Usage | undefined): { nestedCalls?: NestedToolCalls; usage?: Usage } {
		const state = this.roots.get(rootId);
		if (!state) return ownUsage ? { usage: ownUsage } : {};
		const result: { nestedCalls?: NestedToolCalls; usage?: Usage } = { nestedCalls: state.recorder.snapshot() };
		const usage = state.usage ? (ownUsage ? addUsage(ownUsage, state.usage) : state.usage) : ownUsage;
		if (usage) result.usage = usage;
		return result;
	}

	/** The tools `ctx.tools` lists and `executeTool` resolves against. */
	callableTools(): readonly AgentTool<any>[] {
		return this.host.callableTools();
	}

	/** Per-caller scopes end with the low-level run (`agent_end`). */
	clear(): void {
		this.counters.clear();
		this.roots.clear();
	}

	private rootState(callerId: string): RootState {
		const rootId = rootOf(callerId);
		let state = this.roots.get(rootId);
		if (!state) {
			state = { recorder: new NestedCallRecorder(), usage: undefined };
			this.roots.set(rootId, state);
		}
		return state;
	}
}
