import type { ThinkingLevel, ToolExecutionMode } from "@tau/agent";
import type { ImageContent, Model, TextContent } from "@tau/ai";
import type {
	AutocompleteProvider,
	Component,
	EditorComponent,
	EditorTheme,
	KeybindingsManager,
	OverlayHandle,
	OverlayOptions,
	TUI,
} from "@tau/tui";
import type { ModelRegistry, ScopedModel } from "../../../config/index.js";
import type { CompactionResult } from "../../compaction/index.js";
import type { BuildSystemPromptOptions } from "../../resources/system-prompt/system-prompt.js";
import type { Theme } from "../../resources/themes/theme.js";
import type { ReadonlySessionManager, SessionManager } from "../../session/index.js";
import type { ExtensionMode } from "./events.js";

export type DisposableComponent = Component & { dispose?(): void };
export type EditorFactory = (tui: TUI, theme: EditorTheme, keybindings: KeybindingsManager) => EditorComponent;

export interface DialogOptions {
	signal?: AbortSignal;
	/** Milliseconds until the dialog resolves with its default value. */
	timeout?: number;
}

/** `ctx.ui.setWorkingIndicator`: custom frames (rendered as given; `[]` hides it) and their interval. */
export interface WorkingIndicatorOptions {
	frames?: string[];
	intervalMs?: number;
}

export type { KeybindingsManager, ToolExecutionMode };

export interface WidgetOptions {
	placement?: "aboveEditor" | "belowEditor";
}

/** What custom footers read that `ctx` does not offer: git branch, extension statuses, usable providers. */
export interface ReadonlyFooterDataProvider {
	/** The checked-out branch (a short commit when detached), `null` outside a repository. */
	getGitBranch(): string | null;
	getExtensionStatuses(): ReadonlyMap<string, string>;
	/** How many providers have usable credentials. */
	getAvailableProviderCount(): number;
	/** Calls `callback` after the branch changes; returns the unsubscribe function. */
	onBranchChange(callback: () => void): () => void;
}

/** The mode's UI as extensions see it (docs/design/extensions.md#ui-context). */
export interface ExtensionUIContext {
	select(title: string, options: string[], opts?: DialogOptions): Promise<string | undefined>;
	confirm(title: string, message: string, opts?: DialogOptions): Promise<boolean>;
	input(title: string, placeholder?: string, opts?: DialogOptions): Promise<string | undefined>;
	editor(title: string, prefill?: string): Promise<string | undefined>;
	custom<T>(
		factory: (
			tui: TUI,
			theme: Theme,
			keybindings: KeybindingsManager,
			done: (result: T) => void,
		) => DisposableComponent | Promise<DisposableComponent>,
		options?: {
			overlay?: boolean;
			overlayOptions?: OverlayOptions | (() => OverlayOptions);
			onHandle?: (handle: OverlayHandle) => void;
			blocked?: { kind: string; message: string };
		},
	): Promise<T>;
	notify(message: string, type?: "info" | "warning" | "error"): void;
	setStatus(key: string, text: string | undefined): void;
	setWidget(
		key: string,
		content: string[] | ((tui: TUI, theme: Theme) => DisposableComponent) | undefined,
		options?: WidgetOptions,
	): void;
	setTitle(title: string): void;
	setWorkingMessage(message?: string): void;
	setWorkingVisible(visible: boolean): void;
	setWorkingIndicator(options?: WorkingIndicatorOptions): void;
	setHiddenThinkingLabel(label?: string): void;
	setFooter(
		factory: ((tui: TUI, theme: Theme, footerData: ReadonlyFooterDataProvider) => DisposableComponent) | undefined,
	): void;
	setHeader(factory: ((tui: TUI, theme: Theme) => DisposableComponent) | undefined): void;
	onTerminalInput(handler: (data: string) => { consume?: boolean; data?: string } | undefined): () => void;
	pasteToEditor(text: string): void;
	setEditorText(text: string): void;
	getEditorText(): string;
	addAutocompleteProvider(factory: (current: AutocompleteProvider) => AutocompleteProvider): void;
	setEditorComponent(factory: EditorFactory | undefined): void;
	getEditorComponent(): EditorFactory | undefined;
	readonly theme: Theme;
	getAllThemes(): { name: string; path: string | undefined }[];
	getTheme(name: string): Theme | undefined;
	setTheme(theme: string | Theme): { success: boolean; error?: string };
	getToolsExpanded(): boolean;
	setToolsExpanded(expanded: boolean): void;
}

/**
 * How full the model's context window is: estimated tokens in use (null when unknown), the window size and the
 * percentage.
 */
export interface ContextUsage {
	tokens: number | null;
	contextWindow: number;
	percent: number | null;
}

/**
 * Options of `ctx.compact()`: extra instructions for the summary and callbacks for when the compaction finishes or
 * fails.
 */
export interface CompactOptions {
	customInstructions?: string;
	onComplete?(result: CompactionResult): void;
	onError?(error: Error): void;
}

/** What every event handler and shortcut receives. All properties are live getters. */
export interface ExtensionContext {
	readonly ui: ExtensionUIContext;
	readonly mode: ExtensionMode;
	readonly hasUI: boolean;
	readonly cwd: string;
	readonly sessionManager: ReadonlySessionManager;
	readonly modelRegistry: ModelRegistry;
	readonly model: Model<any> | undefined;
	readonly scopedModels: readonly ScopedModel[];
	readonly thinkingLevel: ThinkingLevel | undefined;
	isIdle(): boolean;
	isProjectTrusted(): boolean;
	readonly signal: AbortSignal | undefined;
	abort(): void;
	hasPendingMessages(): boolean;
	shutdown(): void;
	getContextUsage(): ContextUsage | undefined;
	compact(options?: CompactOptions): void;
	getSystemPrompt(): string;
}

export interface SessionReplacementResult {
	cancelled: boolean;
}

/**
 * The context a slash command's handler receives: everything of `ExtensionContext` plus actions only a command may
 * take, such as starting, switching or forking sessions and waiting for idle.
 */
export interface ExtensionCommandContext extends ExtensionContext {
	getSystemPromptOptions(): BuildSystemPromptOptions;
	waitForIdle(): Promise<void>;
	newSession(options?: {
		parentSession?: string;
		setup?: (sessionManager: SessionManager) => Promise<void>;
		withSession?: (ctx: ReplacedSessionContext) => Promise<void>;
	}): Promise<SessionReplacementResult>;
	fork(
		entryId: string,
		options?: { position?: "before" | "at"; withSession?: (ctx: ReplacedSessionContext) => Promise<void> },
	): Promise<SessionReplacementResult>;
	navigateTree(
		targetId: string,
		options?: { summarize?: boolean; customInstructions?: string; replaceInstructions?: boolean; label?: string },
	): Promise<SessionReplacementResult>;
	switchSession(
		sessionPath: string,
		options?: { withSession?: (ctx: ReplacedSessionContext) => Promise<void> },
	): Promise<SessionReplacementResult>;
	reload(): Promise<void>;
}

export interface SendMessageOptions {
	triggerTurn?: boolean;
	deliverAs?: "steer" | "followUp" | "nextTurn";
}
export interface SendUserMessageOptions {
	deliverAs?: "steer" | "followUp";
	expandPromptTemplates?: boolean;
}
export interface CustomMessageInput<T = unknown> {
	customType: string;
	content: string | (TextContent | ImageContent)[];
	display: boolean;
	details?: T;
}

/** The context `withSession` receives after a session replacement; its sends are awaited. */
export interface ReplacedSessionContext extends ExtensionCommandContext {
	sendMessage<T>(message: CustomMessageInput<T>, options?: SendMessageOptions): Promise<void>;
	sendUserMessage(content: string | (TextContent | ImageContent)[], options?: SendUserMessageOptions): Promise<void>;
}

/** The reduced context of `project_trust` handlers: no session exists yet. */
export interface ProjectTrustContext {
	cwd: string;
	mode: ExtensionMode;
	hasUI: boolean;
	ui: Pick<ExtensionUIContext, "select" | "confirm" | "input" | "notify">;
}
