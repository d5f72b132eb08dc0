import type { Component, KeybindingsManager, SelectItem } from "@tau/tui";
import type { AgentSession } from "../../../core/agent-session/agent-session.js";
import type { Theme } from "../../../core/resources/index.js";
import type { AgentSessionRuntime } from "../../../sdk/agent-session-runtime.js";
import type { NoticeKind } from "../components/chat-notice.js";
import type { MarkdownTransform } from "../components/markdown-transform.js";

export interface PickOptions {
	/** Text already in the filter field. */
	filter?: string;
	/** Value selected initially. */
	selected?: string;
	/** Extra keys while the picker is open: action id → handler (selected item, search text) returning whether to close. */
	actions?: Record<string, (item: SelectItem | undefined, query: string) => boolean | Promise<boolean>>;
	/** Footer hint shown under the list. */
	hint?: string;
	/** The dialog closes after this long (the caller's timeout); the seconds left are shown. */
	timeoutMs?: number;
	/** Closes the picker (resolving undefined) when aborted. */
	signal?: AbortSignal;
}

export interface AskOptions {
	placeholder?: string;
	prefill?: string;
	signal?: AbortSignal;
	/** The dialog closes after this long (the caller's timeout); the seconds left are shown. */
	timeoutMs?: number;
}

/** What built-in slash commands and selectors may use of the interactive mode. */
export interface CommandHost {
	readonly runtime: AgentSessionRuntime;
	readonly session: AgentSession;
	readonly theme: Theme;
	/** The extensions' Markdown transformers, for Markdown a command shows. */
	readonly markdownTransform: MarkdownTransform;
	readonly keys: KeybindingsManager;
	readonly agentDir: string;
	readonly appName: string;
	notify(kind: NoticeKind, message: string): void;
	/** A filterable list in place of the editor; undefined when cancelled. */
	pick(title: string, items: SelectItem[], options?: PickOptions): Promise<SelectItem | undefined>;
	/** Shows a component (a custom selector) in place of the editor until the returned function is called. */
	showInPlaceOfEditor(component: Component): () => void;
	/** A one-line text prompt in place of the editor; undefined when cancelled. */
	ask(title: string, options?: AskOptions): Promise<string | undefined>;
	setEditorText(text: string): void;
	/** Shows lines in the transcript (help screens, session info). */
	showLines(lines: string[]): void;
	/** Adds a component to the transcript (Markdown blocks such as the changelog). */
	showComponent(component: Component): void;
	rebuildChat(): void;
	refreshFooter(): void;
	copyToClipboard(text: string): void;
	reload(): Promise<void>;
	quit(): Promise<void>;
	/** Settings panel lives in the coordinator because it applies changes to live components. */
	openSettings(): Promise<void>;
	keybindingProblem(): string | undefined;
	/** Reports a dialog waiting for the user as the terminal's program status; call the result when it closes. */
	block(kind: "question" | "permission" | "auth", title: string): () => void;
	/** The lines of the current frame, for `/debug`. */
	renderedLines(): readonly string[];
}

export interface BuiltinCommand {
	name: string;
	description: string;
	/** Whether `/<name> <argument>` is accepted. */
	takesArgument: boolean;
	/** Not offered by autocomplete. */
	hidden?: boolean;
	run(host: CommandHost, argument: string): Promise<void> | void;
}
