import type {
	AfterToolCallContext,
	AfterToolCallResult,
	AgentEvent,
	AgentMessage,
	AgentTurnContext,
	AgentTurnDecision,
	BeforeToolCallContext,
	BeforeToolCallResult,
} from "@tau/agent";
import type { Message } from "@tau/ai";
import {
	type BoundaryContextPreview,
	createExtensionRuntime,
	type Extension,
	ExtensionRunner,
	type ExtensionRuntime,
	type SessionBoundaryDraft,
	type ToolResultEvent,
} from "../extensions/index.js";
import type { ResourceLoader } from "../resources/index.js";
import { convertToLlm, type SessionManager } from "../session/index.js";
import type { SessionPersistence } from "./persistence.js";

/** Events whose dispatch also keeps the bridge's turn bookkeeping, handled or not. */
const DISPATCH_ALWAYS = new Set(["agent_start", "turn_start", "turn_end", "message_end"]);

/** Builds the runner for the loader's extension set (an empty set gets a fresh runtime). */
export function createRunner(loader: ResourceLoader, cwd: string): ExtensionRunner {
	const loaded = loader.getExtensions();
	const runtime = (loaded.runtime as ExtensionRuntime | undefined) ?? createExtensionRuntime();
	return new ExtensionRunner({ extensions: loaded.extensions as unknown as Extension[], runtime, cwd });
}

export interface BridgeHost {
	readonly sessionManager: SessionManager;
	readonly persistence: SessionPersistence;
	runner(): ExtensionRunner;
	/** Called after the `tool_call` gate let a call through, before it executes. */
	recordToolIntent(toolCallId: string, toolName: string): void;
	refreshContext(): void;
	pendingMessages(): AgentMessage[];
}

/**
 * The agent-facing half of the extension system: tool gates, result middleware, context transforms,
 * event mapping with turn indexes, and the `turn_end` / `agent_before_settle` boundaries.
 */
export class ExtensionBridge {
	private turnIndex = 0;
	private boundaryDispatched = false;

	constructor(private readonly host: BridgeHost) {}

	/** The `tool_call` gate; a model-issued call that passes it gets its intent recorded before it runs. */
	async beforeToolCall(
		context: BeforeToolCallContext,
		signal?: AbortSignal,
		parentToolCallId?: string,
	): Promise<BeforeToolCallResult | undefined> {
		const runner = this.host.runner();
		const decision = await runner.emitToolCall(
			{
				type: "tool_call",
				toolCallId: context.toolCall.id,
				toolName: context.toolCall.name,
				input: context.args as Record<string, unknown>,
				...(parentToolCallId ? { parentToolCallId } : {}),
			},
			signal,
		);
		if (decision.block) return { block: true, reason: decision.reason, terminate: decision.terminate };
		// Nested calls have no transcript entry to repair, so only model-issued calls get intents.
		if (!parentToolCallId) this.host.recordToolIntent(context.toolCall.id, context.toolCall.name);
		return undefined;
	}

	async afterToolCall(
		context: AfterToolCallContext,
		parentToolCallId?: string,
	): Promise<AfterToolCallResult | undefined> {
		const runner = this.host.runner();
		if (!runner.hasHandlers("tool_result")) return undefined;
		const event: ToolResultEvent = {
			type: "tool_result",
			toolCallId: context.toolCall.id,
			toolName: context.toolCall.name,
			input: context.args as Record<string, unknown>,
			content: context.result.content,
			details: context.result.details,
			isError: context.isError,
		};
		if (parentToolCallId) event.parentToolCallId = parentToolCallId;
		if (context.result.structuredContent !== undefined) event.structuredContent = context.result.structuredContent;
		if (context.result.usage) event.usage = context.result.usage;
		const patched = await runner.emitToolResult(event);
		const override: AfterToolCallResult = {
			content: patched.content,
			details: patched.details,
			isError: patched.isError,
		};
		if (patched.structuredContent !== undefined) override.structuredContent = patched.structuredContent;
		if (patched.usage) override.usage = patched.usage;
		return override;
	}

	/** `context` then `context_with_system`, each only when handled. */
	async transformContext(messages: AgentMessage[]): Promise<AgentMessage[]> {
		const runner = this.host.runner();
		let current = messages;
		if (runner.hasHandlers("context")) current = await runner.emitContext(current);
		if (runner.hasHandlers("context_with_system")) current = await runner.emitContextWithSystem(current);
		return current;
	}

	/**
	 * Mirrors an agent event to extensions (awaited). `message_end` handlers may replace the message in
	 * place. An event no extension handles returns `undefined` at once, so streaming deltas cost no
	 * promise each.
	 */
	dispatch(event: AgentEvent): Promise<void> | undefined {
		const runner = this.host.runner();
		if (!DISPATCH_ALWAYS.has(event.type) && !runner.hasHandlers(event.type)) return undefined;
		return this.dispatchToRunner(runner, event);
	}

	private async dispatchToRunner(runner: ExtensionRunner, event: AgentEvent): Promise<void> {
		switch (event.type) {
			case "agent_start":
				this.turnIndex = 0;
				await runner.emit({ type: "agent_start" });
				return;
			case "turn_start":
				this.boundaryDispatched = false;
				await runner.emit({ type: "turn_start", turnIndex: this.turnIndex, timestamp: Date.now() });
				return;
			case "turn_end":
				if (!this.boundaryDispatched && runner.hasHandlers("turn_end")) {
					await this.runBoundary("turn_end", event.message, event.toolResults);
				}
				this.turnIndex++;
				return;
			case "message_end":
				await runner.emitMessageEnd(event.message);
				return;
			default:
				await runner.emit(event as unknown as { type: string; [key: string]: unknown });
		}
	}

	/** `finishTurn`: the boundary runs after the turn's messages were persisted. */
	async finishTurn(turn: AgentTurnContext): Promise<AgentTurnDecision | undefined> {
		const runner = this.host.runner();
		if (!runner.hasHandlers("turn_end")) return undefined;
		this.boundaryDispatched = true;
		const proceed = await this.runBoundary("turn_end", turn.message, turn.toolResults);
		if (!proceed) return undefined;
		// A failed or aborted turn is not continued, and asking for it is not a handler mistake.
		const stop = (turn.message as { stopReason?: string }).stopReason;
		if (stop === "error" || stop === "aborted") return undefined;
		// Tool results already make the loop request again; the explicit continuation adds nothing.
		if (turn.toolResults.length > 0) return undefined;
		const last = this.host.sessionManager.buildSessionProjection().messages.at(-1);
		if (!last || last.role === "assistant") {
			runner.runtime.report(
				"<boundary>",
				"turn_end",
				new Error("turn_end requested continuation without runnable model context"),
			);
			return undefined;
		}
		return { action: "continue" };
	}

	/** `agent_before_settle`: returns whether the handlers asked to continue. */
	async beforeSettle(outcome: "completed" | "aborted" | "error"): Promise<boolean> {
		const runner = this.host.runner();
		if (!runner.hasHandlers("agent_before_settle")) return false;
		const proposal = await runner.emitBoundary({ type: "agent_before_settle", outcome }, (drafts) =>
			this.preview(drafts),
		);
		if (!proposal.valid) return false;
		this.commit(proposal.entries);
		return proposal.continue;
	}

	private async runBoundary(
		type: "turn_end",
		message: AgentMessage,
		toolResults: AgentTurnContext["toolResults"],
	): Promise<boolean> {
		const runner = this.host.runner();
		const { persistence } = this.host;
		const stop = (message as { stopReason?: string }).stopReason;
		const proposal = await runner.emitBoundary(
			{
				type,
				turnIndex: this.turnIndex,
				message,
				toolResults,
				messageEntryId: persistence.entryIdOf(message) ?? "",
				toolResultEntryIds: toolResults.map((result) => persistence.entryIdOf(result) ?? ""),
				outcome: stop === "aborted" ? "aborted" : stop === "error" ? "error" : "completed",
			},
			(drafts) => this.preview(drafts),
		);
		if (!proposal.valid) return false;
		this.commit(proposal.entries);
		return proposal.continue;
	}

	/** The branch as the model would see it; drafts are validated against the current branch. */
	private preview(drafts: readonly SessionBoundaryDraft[]): BoundaryContextPreview {
		const { sessionManager } = this.host;
		const branchIds = new Set(sessionManager.getBranch().map((entry) => entry.id));
		for (const draft of drafts) {
			if (draft.type === "context_edit" && !branchIds.has(draft.targetId)) {
				throw new Error(`Entry ${draft.targetId} is not on the active branch`);
			}
			if (draft.type === "compaction" && draft.firstKeptEntryId !== null && !branchIds.has(draft.firstKeptEntryId)) {
				throw new Error(`Entry ${draft.firstKeptEntryId} is not on the active branch`);
			}
		}
		const projection = sessionManager.buildSessionProjection();
		const llmMessages: Message[] = convertToLlm(projection.messages);
		const pendingMessages = this.host.pendingMessages();
		const last = projection.messages.at(-1);
		return {
			contextEntries: projection.entries,
			contextMessages: projection.messages as AgentMessage[],
			llmMessages,
			pendingMessages,
			canContinue: last !== undefined && last.role !== "assistant",
		};
	}

	/** Appends accepted drafts in list order, then re-projects the agent's cache. */
	private commit(drafts: readonly SessionBoundaryDraft[]): void {
		if (drafts.length === 0) return;
		const { sessionManager, persistence } = this.host;
		persistence.appendAnnounced(() => {
			for (const draft of drafts) {
				switch (draft.type) {
					case "custom":
						sessionManager.appendCustomEntry(draft.customType, draft.data);
						break;
					case "custom_message":
						sessionManager.appendCustomMessageEntry(
							draft.customType,
							draft.content,
							draft.display,
							draft.details,
						);
						break;
					case "context_edit":
						sessionManager.appendContextEdit(draft.targetId, draft.replacement);
						break;
					case "compaction":
						sessionManager.appendCompaction(
							draft.summary,
							draft.firstKeptEntryId,
							0,
							draft.details,
							true,
							draft.usage,
						);
						break;
				}
			}
		});
		this.host.refreshContext();
	}
}
