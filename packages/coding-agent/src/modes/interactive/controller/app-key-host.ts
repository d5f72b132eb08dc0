import { type ClipboardReader, type TUI, TuiAltScreen } from "@tau/tui";
import { errorMessage } from "../../../core/errors.js";
import { pasteFromClipboard } from "../clipboard/clipboard-paste.js";
import type { CommandHost } from "../commands/command-host.js";
import { selectModel } from "../commands/model-commands.js";
import { forkFromMessage, navigateTree, resumeSession, startNewSession } from "../commands/session-commands.js";
import type { PromptEditor } from "../components/custom-editor.js";
import type { UserShell } from "../shell/user-shell.js";
import type { KeyActionHost } from "./key-actions.js";
import type { SubmissionPipeline } from "./submission.js";

/** The coordinator as application keys see it. */
export interface AppKeyOwner extends CommandHost {
	readonly tui: TUI;
	readonly editor: PromptEditor;
	/** The editor text with paste markers expanded. */
	expandedEditorText(): string;
	/** Runs a command or selector flow, reporting failures in the chat. */
	guard(work: Promise<void>): Promise<void>;
	setToolsExpanded(expanded: boolean): void;
	toolsExpanded(): boolean;
	toggleThinkingBlocks(): void;
	currentRenderer(): TUI;
	suspend(): void;
	openExternalEditor(): void;
	readClipboard(): ClipboardReader;
	/** Re-colours the editor border (thinking level, `!` shell mode). */
	refreshEditorBorder(): void;
}

/** Binds the application key actions (docs/design/interactive.md#submission-and-keys) to the coordinator and its controllers. */
export function appKeyActionHost(
	owner: AppKeyOwner,
	parts: { submission: SubmissionPipeline; shell: UserShell; now: () => number },
): KeyActionHost {
	const { submission, shell } = parts;
	return {
		get session() {
			return owner.session;
		},
		keys: owner.keys,
		now: parts.now,
		getEditorText: () => owner.editor.getText(),
		setEditorText: (text) => owner.setEditorText(text),
		submitFollowUp: () => {
			const text = owner.expandedEditorText();
			owner.editor.setText("");
			submission.followUp(text);
		},
		restoreQueued: () => submission.restoreQueued(),
		notify: (kind, message) => owner.notify(kind, message),
		shellRunning: () => shell.isRunning,
		abortShell: () => shell.abort(),
		doubleEscapeAction: () => owner.session.settingsManager.getDoubleEscapeAction(),
		openTree: () => void owner.guard(navigateTree(owner)),
		openFork: () => void owner.guard(forkFromMessage(owner)),
		quit: () => void owner.quit(),
		cycleThinking: () => {
			const level = owner.session.cycleThinkingLevel();
			if (level) owner.notify("info", `Thinking level: ${level}`);
			owner.refreshFooter();
		},
		cycleModel: (direction) =>
			void owner.guard(
				owner.session.cycleModel(direction).then((result) => {
					if (result) owner.notify("info", `Model: ${owner.session.model?.id ?? "none"}`);
					owner.refreshFooter();
				}),
			),
		selectModel: () => void owner.guard(selectModel(owner)),
		toggleToolsExpanded: () => owner.setToolsExpanded(!owner.toolsExpanded()),
		toggleThinkingBlocks: () => owner.toggleThinkingBlocks(),
		copyLastMessage: () => {
			// Without copy-on-select, a fullscreen selection waits for this key to be copied.
			const screen = owner.currentRenderer();
			if (
				screen instanceof TuiAltScreen &&
				!owner.session.settingsManager.getFullscreenCopyOnSelect() &&
				screen.hasActiveSelection()
			) {
				void screen.copyActiveSelectionToClipboard();
				return;
			}
			const text = owner.session.getLastAssistantText();
			if (!text) owner.notify("info", "No agent messages to copy yet.");
			else {
				owner.copyToClipboard(text);
				owner.notify("info", "Copied last agent message to clipboard");
			}
		},
		newSession: () => void owner.guard(startNewSession(owner)),
		resumeSession: () => void owner.guard(resumeSession(owner)),
		suspend: () => owner.suspend(),
		openExternalEditor: () => owner.openExternalEditor(),
		pasteFromClipboard: () => {
			void pasteFromClipboard(owner.editor, owner.readClipboard()).then(
				() => {
					owner.refreshEditorBorder();
					owner.tui.requestRender();
				},
				(error) => owner.notify("error", `Failed to paste from clipboard: ${errorMessage(error)}`),
			);
		},
	};
}
