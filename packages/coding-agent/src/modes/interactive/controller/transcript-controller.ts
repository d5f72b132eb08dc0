import type { AgentMessage } from "@tau/agent";
import type { AssistantMessage, ToolCall, ToolResultMessage } from "@tau/ai";
import type { Component } from "@tau/tui";
import type { AgentSession } from "../../../core/agent-session/agent-session.js";
import type { AgentSessionEvent, CompactionReason } from "../../../core/agent-session/events.js";
import type { Theme } from "../../../core/resources/index.js";
import {
	type BashExecutionMessage,
	type CustomEntry,
	type CustomMessage,
	fromBranchEnd,
	projectBranchTail,
	type SessionEntry,
} from "../../../core/session/index.js";
import { AssistantMessageView } from "../components/assistant-message.js";
import { BashExecutionView } from "../components/bash-execution.js";
import { chatNotice, type NoticeKind } from "../components/chat-notice.js";
import type { ChatTranscript } from "../components/chat-transcript.js";
import { CustomMessageView } from "../components/custom-message.js";
import { formatTokens } from "../components/footer.js";
import type { MarkdownTransform } from "../components/markdown-transform.js";
import type { StatusLine } from "../components/status-line.js";
import {
	BRANCH_SUMMARY_KIND,
	compactionSummaryKind,
	type SummaryKind,
	SummaryMessageView,
} from "../components/summary-message.js";
import { ToolExecutionView, type ToolRendering } from "../components/tool-execution.js";
import { UserMessageView } from "../components/user-message.js";

/** What the transcript controller needs from the coordinator. */
export interface TranscriptHost {
	readonly theme: Theme;
	readonly chat: ChatTranscript;
	readonly status: StatusLine;
	interruptKey(): string;
	toolsExpanded(): boolean;
	hideThinking(): boolean;
	hiddenThinkingLabel(): string;
	refreshPending(): void;
	refreshFooter(): void;
	/** Called after every compaction ends (queued submissions are flushed there). */
	compactionEnded(): void;
	/**
	 * Re-renders the transcript from the session's current context; `compactionLast` puts a leading
	 * compaction summary below the kept messages, where a compaction that just ran belongs.
	 */
	rebuildChat(options?: { compactionLast?: boolean }): void;
	/** Called when a run settles (pending `!` components move into the chat). */
	settled(): void;
	requestRender(): void;
	/** Runs `apply` before the next paced frame, replacing an earlier update with the same key. */
	deferUpdate(key: unknown, apply: () => void): void;
	/** Runs the deferred update of `key` now, if one is waiting. */
	flushUpdate(key: unknown): void;
	/** OSC 9;4 terminal progress, when the `terminal.showTerminalProgress` setting asks for it. */
	setProgress(active: boolean): void;
	/** An extension's renderer output for a custom message, if one is registered and succeeds. */
	renderCustomMessage(message: CustomMessage): Component | undefined;
	/** An extension's renderer output for a `custom` entry (entries without one are not shown). */
	renderCustomEntry(entry: CustomEntry): Component | undefined;
	/** Extension renderers for a tool, when any are registered. */
	toolRendering(toolName: string): ToolRendering | undefined;
	/** The extensions' Markdown transformer chain; without one Markdown is shown as stored. */
	readonly markdownTransform?: MarkdownTransform;
	/** Whether a reply that missed the prompt cache gets a notice (`showCacheMissNotices`). */
	showCacheMissNotices?(): boolean;
}

/** Messages of a resumed history given views per batch: about a screen of short messages. */
const HISTORY_BATCH = 32;

/**
 * The result each tool call of a history shows: the last result naming the call's id, before a later
 * call reuses the id (one pass, so views built late, batch by batch, still find their results).
 */
function toolResultsByCall(messages: readonly AgentMessage[]): Map<ToolCall, ToolResultMessage> {
	const calls = new Map<string, ToolCall>();
	const results = new Map<ToolCall, ToolResultMessage>();
	for (const message of messages) {
		if (message.role === "assistant") {
			for (const part of message.content) if (part.type === "toolCall") calls.set(part.id, part);
		} else if (message.role === "toolResult") {
			const call = calls.get(message.toolCallId);
			if (call) results.set(call, message);
		}
	}
	return results;
}

/**
 * What a session that is still opening shows first: the projected messages of its branch's last
 * entries, enough for a screen of `rows` and its scroll-back (all of them when a compaction is among them).
 */
export function historyEnd(session: AgentSession, rows: number): readonly AgentMessage[] {
	const count = Math.max(128, 4 * rows);
	return (fromBranchEnd(session.sessionManager, (branch) => projectBranchTail(branch, count)) ??
		session.messages) as AgentMessage[];
}

export function userText(message: { content: unknown }): string {
	if (typeof message.content === "string") return message.content;
	if (!Array.isArray(message.content)) return "";
	return message.content
		.map((part: { type: string; text?: string }) => (part.type === "text" ? (part.text ?? "") : "[image]"))
		.join("");
}

/**
 * Maps session events to transcript components (docs/design/interactive.md#transcript). Tool components are keyed by
 * tool-call id and created as soon as a call appears in the streaming snapshot.
 */
export class TranscriptController {
	private streaming: AssistantMessageView | undefined;
	private readonly pendingTools = new Map<string, ToolExecutionView>();
	private readonly assistantViews: AssistantMessageView[] = [];
	private readonly toolViews: ToolExecutionView[] = [];
	private readonly bashViews: BashExecutionView[] = [];
	private readonly summaryViews: SummaryMessageView[] = [];
	private retryAttempts = 0;
	/** Between `compaction_start` and `compaction_end`, whose handler rebuilds the chat itself. */
	private compacting = false;
	/** Per `provider/model`: whether its latest reply used the prompt cache (for cache-miss notices). */
	private readonly lastCacheUse = new Map<string, boolean>();
	/** Custom messages shown at `message_start`, so their `entry_appended` is not shown twice. */
	private shownCustom: string[] = [];
	/** The history `renderHistory` was given and how far back it has views (see `deferHistory`). */
	private history:
		| { messages: readonly AgentMessage[]; end: number; results: Map<ToolCall, ToolResultMessage> }
		| undefined;
	private historyComponents = new WeakSet<Component>();

	constructor(private readonly host: TranscriptHost) {}

	notice(kind: NoticeKind, message: string): void {
		this.host.chat.addChild(chatNotice(this.host.theme, kind, message));
		this.host.requestRender();
	}

	add(component: Component): void {
		this.host.chat.addChild(component);
		this.host.requestRender();
	}

	/** Re-applies the expand and thinking toggles to every component. */
	applyToggles(): void {
		const expanded = this.host.toolsExpanded();
		for (const view of this.toolViews) view.setExpanded(expanded);
		for (const view of this.bashViews) view.setExpanded(expanded);
		for (const view of this.summaryViews) view.setExpanded(expanded);
		for (const view of this.assistantViews) view.setOptions(this.viewOptions());
		this.host.requestRender();
	}

	trackBashView(view: BashExecutionView): void {
		view.setExpanded(this.host.toolsExpanded());
		this.bashViews.push(view);
	}

	private viewOptions() {
		return { hideThinking: this.host.hideThinking(), hiddenThinkingLabel: this.host.hiddenThinkingLabel() };
	}

	private newAssistantView(): AssistantMessageView {
		const view = new AssistantMessageView(this.host.theme, this.viewOptions(), this.host.markdownTransform);
		this.assistantViews.push(view);
		return view;
	}

	private newToolView(call: { id: string; name: string; arguments: unknown }): ToolExecutionView {
		const view = new ToolExecutionView(
			this.host.theme,
			call.name,
			call.id,
			call.arguments,
			this.host.toolsExpanded(),
			this.host.toolRendering(call.name),
		);
		this.toolViews.push(view);
		return view;
	}

	/**
	 * Renders a whole transcript (session start, switches, compaction) from the projected messages. A
	 * long history shows its end first: earlier messages get their views only when a frame or a
	 * background slice reaches them (`deferEarlier`), so a resume costs about one screen.
	 */
	renderHistory(messages: readonly AgentMessage[], options: { compactionLast?: boolean } = {}): void {
		if (options.compactionLast && messages[0]?.role === "compactionSummary") {
			messages = [...messages.slice(1), messages[0]];
		}
		this.host.chat.clear();
		this.assistantViews.length = 0;
		this.toolViews.length = 0;
		this.bashViews.length = 0;
		this.summaryViews.length = 0;
		this.pendingTools.clear();
		this.streaming = undefined;
		this.deferHistory(messages, messages.length);
		this.host.requestRender();
	}

	/**
	 * A long session's whole history once it has opened, where `renderHistory` got only its end
	 * (docs/design/session-runtime.md#opening-a-long-session): earlier messages get views as a frame or
	 * slice reaches them. A history that no longer ends that way (the opening answered interrupted
	 * calls) is rendered anew, keeping what was added after it (startup notices).
	 */
	completeHistory(messages: readonly AgentMessage[]): void {
		const shown = this.history;
		const shift = shown ? messages.length - shown.messages.length : -1;
		if (shown && shift >= 0 && shown.messages.every((message, i) => messages[shift + i] === message)) {
			this.deferHistory(messages, shown.end + shift);
		} else {
			const added = this.host.chat.children.filter((child) => !this.historyComponents.has(child));
			this.renderHistory(messages);
			for (const child of added) this.host.chat.addChild(child);
		}
		this.host.requestRender();
	}

	/** Gives `messages` before `end` views batch by batch, latest first, as the chat needs them. */
	private deferHistory(messages: readonly AgentMessage[], end: number): void {
		const history = { messages, end, results: toolResultsByCall(messages) };
		this.history = history;
		this.host.chat.deferEarlier(() => {
			const views: Component[] = [];
			while (views.length === 0 && history.end > 0) {
				const start = Math.max(0, history.end - HISTORY_BATCH);
				for (let i = start; i < history.end; i++) this.historyViews(history.messages[i]!, history.results, views);
				history.end = start;
			}
			for (const view of views) this.historyComponents.add(view);
			return views;
		});
	}

	/** The views one history message adds (a tool result is shown by its call's view). */
	private historyViews(message: AgentMessage, results: ReadonlyMap<ToolCall, ToolResultMessage>, views: Component[]) {
		switch (message.role) {
			case "user":
				views.push(this.userView(message));
				break;
			case "assistant": {
				const view = this.newAssistantView();
				view.updateContent(message, false);
				views.push(view);
				for (const part of message.content) {
					if (part.type !== "toolCall") continue;
					const tool = this.newToolView(part);
					tool.setArgsComplete();
					const result = results.get(part);
					if (result)
						tool.updateResult({ content: result.content, details: result.details, isError: result.isError });
					views.push(tool);
				}
				break;
			}
			case "bashExecution": {
				const bash = message as BashExecutionMessage;
				const view = new BashExecutionView(this.host.theme, bash.command, bash.excludeFromContext === true);
				view.finish({
					output: bash.output,
					exitCode: bash.exitCode,
					cancelled: bash.cancelled,
					truncated: bash.truncated,
					...(bash.fullOutputPath ? { fullOutputPath: bash.fullOutputPath } : {}),
				});
				this.trackBashView(view);
				views.push(view);
				break;
			}
			case "custom":
				if ((message as CustomMessage).display) views.push(this.customView(message as CustomMessage));
				break;
			case "compactionSummary":
				views.push(this.summaryView(compactionSummaryKind(message.tokensBefore), message));
				break;
			case "branchSummary":
				views.push(this.summaryView(BRANCH_SUMMARY_KIND, message));
				break;
		}
	}

	handle(event: AgentSessionEvent): void {
		const host = this.host;
		host.refreshFooter();
		switch (event.type) {
			case "agent_start":
				this.pendingTools.clear();
				this.retryAttempts = 0;
				break;
			case "turn_start":
				host.setProgress(true);
				host.status.showWorking(`Working (${host.interruptKey()} to interrupt)`);
				break;
			case "queue_update":
				host.refreshPending();
				break;
			case "message_start":
				this.onMessageStart(event.message);
				break;
			case "message_update":
				if (event.message.role === "assistant") this.onAssistantUpdate(event.message);
				break;
			case "message_end":
				if (event.message.role === "assistant") this.onAssistantEnd(event.message);
				break;
			case "tool_execution_start": {
				if ((event as { parentToolCallId?: string }).parentToolCallId) break;
				let view = this.pendingTools.get(event.toolCallId);
				if (!view) {
					view = this.newToolView({ id: event.toolCallId, name: event.toolName, arguments: event.args });
					this.pendingTools.set(event.toolCallId, view);
					host.chat.addChild(view);
				}
				view.markExecutionStarted();
				break;
			}
			case "tool_execution_update":
				this.pendingTools
					.get(event.toolCallId)
					?.updateResult({ ...(event.partialResult ?? { content: [] }), isError: false }, true);
				break;
			case "tool_execution_end": {
				const view = this.pendingTools.get(event.toolCallId);
				if (view) {
					const durationMs = event.durationMs;
					view.updateResult({
						...(event.result ?? { content: [] }),
						isError: event.isError,
						...(durationMs !== undefined ? { durationMs } : {}),
					});
					this.pendingTools.delete(event.toolCallId);
				}
				break;
			}
			case "agent_end":
				host.setProgress(false);
				host.status.clearIndicator();
				if (this.streaming) {
					host.flushUpdate(this.streaming);
					host.chat.removeChild(this.streaming);
				}
				this.streaming = undefined;
				this.pendingTools.clear();
				break;
			case "agent_settled":
				host.settled();
				break;
			case "compaction_start":
				this.compacting = true;
				host.setProgress(true);
				host.status.show(this.compactionIndicator(event.reason));
				break;
			case "compaction_end":
				this.compacting = false;
				if (!this.streaming) host.setProgress(false);
				host.status.clearIndicator();
				this.onCompactionEnd(event);
				host.compactionEnded();
				break;
			case "auto_retry_start":
				this.retryAttempts = event.attempt;
				host.status.showCountdown(
					event.delayMs,
					(seconds) =>
						`Retrying (${event.attempt}/${event.maxAttempts}) in ${seconds}s... (${host.interruptKey()} to cancel)`,
				);
				break;
			case "auto_retry_end":
				host.status.clearIndicator();
				if (!event.success) {
					this.notice(
						"error",
						`Retry failed after ${event.attempt} attempts: ${event.finalError ?? "Unknown error"}`,
					);
				}
				break;
			case "summarization_retry_scheduled":
				this.notice("error", event.errorMessage);
				host.status.showCountdown(
					event.delayMs,
					(seconds) =>
						`Retrying (${event.attempt}/${event.maxAttempts}) in ${seconds}s... (${host.interruptKey()} to cancel)`,
				);
				break;
			case "summarization_retry_attempt_start":
				host.status.show(
					event.source === "branchSummary"
						? `Summarizing branch... (${host.interruptKey()} to cancel)`
						: this.compactionIndicator(event.reason),
				);
				break;
			case "summarization_retry_finished":
				host.status.clearIndicator();
				break;
			case "entry_appended":
				this.onEntryAppended(event.entry);
				break;
		}
		host.requestRender();
	}

	private customView(message: CustomMessage): Component {
		return (
			this.host.renderCustomMessage(message) ??
			new CustomMessageView(
				this.host.theme,
				message.customType,
				userText(message),
				this.host.markdownTransform,
				message.timestamp,
			)
		);
	}

	private userView(message: { content: unknown; timestamp?: number }): UserMessageView {
		return new UserMessageView(this.host.theme, userText(message), this.host.markdownTransform, message.timestamp);
	}

	private summaryView(kind: SummaryKind, message: { summary: string; timestamp: number }): SummaryMessageView {
		const view = new SummaryMessageView(
			this.host.theme,
			kind,
			message.summary,
			this.host.markdownTransform,
			message.timestamp,
		);
		view.setExpanded(this.host.toolsExpanded());
		this.summaryViews.push(view);
		return view;
	}

	private customKey(message: { customType: string; content: unknown }): string {
		return `${message.customType}\0${JSON.stringify(message.content)}`;
	}

	private onEntryAppended(entry: SessionEntry): void {
		if (entry.type === "compaction" && !this.compacting) {
			// A compaction committed outside a compaction run (an extension's session boundary): the
			// session re-projects its context right after announcing the entry, so rebuild after that.
			const cost = entry.usage?.cost.total ?? 0;
			queueMicrotask(() => {
				this.host.rebuildChat({ compactionLast: true });
				if (cost > 0) this.notice("info", `Compaction cost: $${cost.toFixed(3)}`);
			});
		} else if (entry.type === "usage" && entry.kind === "cache_warm") {
			this.notice(
				"info",
				`Cache warmed for ${entry.provider}/${entry.model} ($${entry.usage.cost.total.toFixed(3)})`,
			);
		} else if (entry.type === "custom_message") {
			if (!entry.display) return;
			const shown = this.shownCustom.indexOf(this.customKey(entry));
			if (shown >= 0) {
				this.shownCustom.splice(shown, 1);
				return;
			}
			const message: CustomMessage = {
				role: "custom",
				customType: entry.customType,
				content: entry.content,
				display: true,
				timestamp: Date.parse(entry.timestamp),
				...(entry.details !== undefined ? { details: entry.details } : {}),
			};
			this.host.chat.insertBefore(this.customView(message), this.streaming);
		} else if (entry.type === "custom") {
			const view = this.host.renderCustomEntry(entry);
			if (view) this.host.chat.insertBefore(view, this.streaming);
		}
	}

	private onMessageStart(message: AgentMessage): void {
		if (message.role === "custom") {
			const custom = message as CustomMessage;
			if (!custom.display) return;
			this.shownCustom.push(this.customKey(custom));
			this.host.chat.addChild(this.customView(custom));
		} else if (message.role === "user") {
			this.host.chat.addChild(this.userView(message));
			this.host.refreshPending();
		} else if (message.role === "assistant") {
			const view = this.newAssistantView();
			this.streaming = view;
			this.host.chat.addChild(view);
			view.updateContent(message, true);
		}
	}

	private onAssistantUpdate(message: AssistantMessage): void {
		const view = this.streaming;
		if (!view) {
			this.onMessageStart(message);
			return;
		}
		// Deltas arrive faster than frames: each frame shows the latest snapshot, laid out once.
		this.host.deferUpdate(view, () => {
			view.updateContent(message, true);
			for (const part of message.content) if (part.type === "toolCall") this.toolCallSeen(part);
		});
	}

	private toolCallSeen(call: ToolCall): void {
		const existing = this.pendingTools.get(call.id);
		if (existing) existing.updateArgs(call.arguments);
		else {
			const view = this.newToolView(call);
			this.pendingTools.set(call.id, view);
			this.host.chat.addChild(view);
		}
	}

	private onAssistantEnd(message: AssistantMessage): void {
		if (this.streaming) this.host.flushUpdate(this.streaming);
		const view = this.streaming ?? this.newAssistantView();
		if (!this.streaming) this.host.chat.addChild(view);
		for (const part of message.content) if (part.type === "toolCall") this.toolCallSeen(part);
		if (message.stopReason === "aborted") {
			view.abortedText =
				this.retryAttempts > 0 ? `Aborted after ${this.retryAttempts} retry attempt(s)` : "Operation aborted";
		}
		view.updateContent(message, false);
		if (message.stopReason === "aborted" || message.stopReason === "error") {
			const text =
				message.stopReason === "aborted"
					? (view.abortedText ?? "Operation aborted")
					: (message.errorMessage ?? "Error");
			for (const tool of this.pendingTools.values()) {
				tool.updateResult({ content: [{ type: "text", text }], isError: true });
			}
			this.pendingTools.clear();
		} else {
			for (const tool of this.pendingTools.values()) tool.setArgsComplete();
			this.noteCacheMiss(message);
		}
		this.streaming = undefined;
	}

	/** The indicator of a running compaction: manual, or automatic (after a context overflow). */
	private compactionIndicator(reason: CompactionReason): string {
		const cancel = `(${this.host.interruptKey()} to cancel)`;
		if (reason === "manual") return `Compacting context... ${cancel}`;
		return `${reason === "overflow" ? "Context overflow detected, " : ""}Auto-compacting... ${cancel}`;
	}

	/** A reply that read nothing from the cache although the model's previous reply used it. */
	private noteCacheMiss(message: AssistantMessage): void {
		const model = `${message.provider}/${message.model}`;
		const previous = this.lastCacheUse.get(model);
		const { usage } = message;
		this.lastCacheUse.set(model, usage.cacheRead + usage.cacheWrite > 0);
		if (!previous || usage.cacheRead > 0 || !this.host.showCacheMissNotices?.()) return;
		this.notice(
			"warning",
			`Cache miss: ${formatTokens(usage.input + usage.cacheWrite)} prompt tokens were not read from the cache (${model})`,
		);
	}

	private onCompactionEnd(event: Extract<AgentSessionEvent, { type: "compaction_end" }>): void {
		if (event.aborted) {
			if (event.reason === "manual") this.notice("error", "Compaction cancelled");
			else this.notice("info", "Auto-compaction cancelled");
			return;
		}
		if (event.result) {
			// The summary block below the kept messages reports it, as in pi.
			this.host.rebuildChat({ compactionLast: true });
			const { usage } = event.result;
			if (usage && usage.cost.total > 0) this.notice("info", `Compaction cost: $${usage.cost.total.toFixed(3)}`);
			return;
		}
		if (event.errorMessage) {
			if (event.reason === "manual") this.notice("error", event.errorMessage);
			else this.add(chatNotice(this.host.theme, "error", `Auto-compaction failed: ${event.errorMessage}`));
		}
	}
}
