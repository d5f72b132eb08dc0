import type { ImageContent, JsonValue, TextContent, Tool, ToolCall, Usage } from "@tau/ai";
import type { Static, TSchema } from "typebox";

/** Whether the tool calls of one assistant message run one after another or concurrently. */
export type ToolExecutionMode = "sequential" | "parallel";

/** The `toolCall` content block of an assistant message. */
export type AgentToolCall = ToolCall;

/** What a tool returns: content for the model plus details and structured data for the UI. */
export interface AgentToolResult<T = JsonValue | undefined> {
	/** Model-facing result. */
	content: (TextContent | ImageContent)[];
	/** Structured data for UI and logs; never sent to the model. */
	details: T;
	/** Machine-readable result matching `outputSchema`; not sent to the model. */
	structuredContent?: JsonValue;
	/** The tool's own usage (e.g. nested LLM calls); not context accounting. */
	usage?: Usage;
	/** Reports a failure without throwing; details and structured content are kept. */
	isError?: boolean;
	/** Hint to skip the automatic follow-up request (only when every result of the batch terminates). */
	terminate?: boolean;
}

/** Receives partial results while a tool runs, so the UI can show progress before the final result. */
export type AgentToolUpdateCallback<T = any> = (partialResult: AgentToolResult<T>) => void;

/** Static type of the parameter schema: TypeBox `Static`, `any` for `AgentTool<any>`, else `unknown`. */
export type AgentToolParams<TParameters> = unknown extends TParameters
	? any
	: TParameters extends TSchema
		? Static<TParameters>
		: unknown;

/** A tool the agent can call: its schema, a label for the UI and the `execute` function that produces the result. */
export interface AgentTool<TParameters extends object = object, TDetails = any> extends Tool<TParameters> {
	/** Human-readable name, UI only. */
	label: string;
	/** Compatibility shim for legacy argument shapes; runs before validation. */
	prepareArguments?: (args: unknown) => AgentToolParams<TParameters>;
	/** Schema of `structuredContent`. */
	outputSchema?: object;
	execute: (
		toolCallId: string,
		params: AgentToolParams<TParameters>,
		signal?: AbortSignal,
		onUpdate?: AgentToolUpdateCallback<TDetails>,
	) => Promise<AgentToolResult<TDetails>>;
	/** Recovery policy for durable runtimes; ignored by this package. */
	replay?: "never" | "safe";
	/** `"sequential"` forces the whole batch containing this tool to run sequentially. */
	executionMode?: ToolExecutionMode;
}

/** One finished tool call: the call, its result, whether it failed and how long it ran. */
export interface AgentToolCallOutcome {
	toolCall: AgentToolCall;
	result: AgentToolResult<any>;
	isError: boolean;
	/** Monotonic duration of `execute()`; absent when the tool did not run. */
	durationMs?: number;
}
