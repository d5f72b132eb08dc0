import type { KeybindingsManager } from "@tau/tui";
import type { AgentSession } from "../../../core/agent-session/agent-session.js";

/** The coordinator's operations that application keys trigger. */
export interface KeyActionHost {
	readonly session: AgentSession;
	readonly keys: KeybindingsManager;
	now(): number;
	getEditorText(): string;
	setEditorText(text: string): void;
	submitFollowUp(): void;
	restoreQueued(): number;
	notify(kind: "info" | "warning", message: string): void;
	shellRunning(): boolean;
	abortShell(): void;
	doubleEscapeAction(): "tree" | "fork" | "none";
	openTree(): void;
	openFork(): void;
	quit(): void;
	cycleThinking(): void;
	cycleModel(direction: "forward" | "backward"): void;
	selectModel(): void;
	toggleToolsExpanded(): void;
	toggleThinkingBlocks(): void;
	copyLastMessage(): void;
	newSession(): void;
	resumeSession(): void;
	suspend(): void;
	openExternalEditor(): void;
	pasteFromClipboard(): void;
}

const DOUBLE_PRESS_MS = 500;

/**
 * Application key actions handled by the main editor (docs/design/interactive.md#submission-and-keys, docs/design/interactive.md#keybindings). Returns whether
 * the key was consumed; unconsumed keys go on to the editor.
 */
export class KeyActions {
	private lastEscape = Number.NEGATIVE_INFINITY;
	private lastClear = Number.NEGATIVE_INFINITY;

	constructor(private readonly host: KeyActionHost) {}

	handle(data: string): boolean {
		const { host } = this;
		const keys = host.keys;
		// Explicitly bound history keys beat application actions on the same key.
		if (keys.matches(data, "tui.editor.historyPrevious") || keys.matches(data, "tui.editor.historyNext"))
			return false;
		if (keys.matches(data, "app.interrupt")) return this.interrupt();
		if (keys.matches(data, "app.clear")) {
			const now = host.now();
			if (now - this.lastClear < DOUBLE_PRESS_MS) {
				this.lastClear = Number.NEGATIVE_INFINITY;
				host.quit();
				return true;
			}
			this.lastClear = now;
			host.setEditorText("");
			return true;
		}
		if (keys.matches(data, "app.exit")) {
			if (host.getEditorText() !== "") return false;
			host.quit();
			return true;
		}
		if (keys.matches(data, "app.message.followUp")) {
			host.submitFollowUp();
			return true;
		}
		if (keys.matches(data, "app.message.dequeue")) {
			const count = host.restoreQueued();
			host.notify(
				"info",
				count > 0 ? `Restored ${count} queued message(s) to editor` : "No queued messages to restore",
			);
			return true;
		}
		const simple: [string, () => void][] = [
			["app.thinking.cycle", () => host.cycleThinking()],
			["app.model.cycleForward", () => host.cycleModel("forward")],
			["app.model.cycleBackward", () => host.cycleModel("backward")],
			["app.model.select", () => host.selectModel()],
			["app.tools.expand", () => host.toggleToolsExpanded()],
			["app.thinking.toggle", () => host.toggleThinkingBlocks()],
			["app.message.copy", () => host.copyLastMessage()],
			["app.session.new", () => host.newSession()],
			["app.session.tree", () => host.openTree()],
			["app.session.fork", () => host.openFork()],
			["app.session.resume", () => host.resumeSession()],
			["app.suspend", () => host.suspend()],
			["app.editor.external", () => host.openExternalEditor()],
			["app.clipboard.pasteImage", () => host.pasteFromClipboard()],
		];
		for (const [action, run] of simple) {
			if (keys.matches(data, action)) {
				run();
				return true;
			}
		}
		return false;
	}

	/** Escape, in the priority order of docs/design/interactive.md#submission-and-keys. */
	private interrupt(): boolean {
		const { host } = this;
		const session = host.session;
		if (session.isRetrying) {
			session.abortRetry();
			// The retry may be past its wait and streaming again; that attempt stops like any run.
			if (session.isStreaming) void session.abort();
			return true;
		}
		if (session.isCompacting) {
			session.abortCompaction();
			return true;
		}
		if (session.isStreaming) {
			host.restoreQueued();
			void session.abort();
			return true;
		}
		if (host.shellRunning()) {
			host.abortShell();
			return true;
		}
		const text = host.getEditorText();
		if (text.trimStart().startsWith("!")) {
			host.setEditorText("");
			return true;
		}
		if (text === "") {
			const now = host.now();
			if (now - this.lastEscape < DOUBLE_PRESS_MS) {
				this.lastEscape = Number.NEGATIVE_INFINITY;
				const action = host.doubleEscapeAction();
				if (action === "tree") host.openTree();
				else if (action === "fork") host.openFork();
			} else this.lastEscape = now;
			return true;
		}
		return false;
	}
}
