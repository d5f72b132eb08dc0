import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { basename } from "node:path";
import type { ImageContent } from "@tau/ai";
import {
	type AutocompleteProvider,
	type ClipboardReader,
	type Component,
	Container,
	type InputListener,
	type KeybindingsManager,
	ProcessTerminal,
	replaceControlCharacters,
	type SelectItem,
	setKeybindings,
	systemClipboardReader,
	type TUI,
	TuiAltScreen,
	type TuiMode,
} from "@tau/tui";
import { APP_NAME, VERSION } from "../../config/app-identity.js";
import type { SettingsManager } from "../../config/index.js";
import type { AgentSession } from "../../core/agent-session/agent-session.js";
import type { DisposableComponent, EditorFactory, ExtensionUIContext } from "../../core/extensions/index.js";
import { openInBrowser } from "../../core/platform/open-url.js";
import type { Theme } from "../../core/resources/index.js";
import type { AgentSessionRuntime } from "../../core/runtime/agent-session-runtime.js";
import { pasteFromClipboard } from "./clipboard/clipboard-paste.js";
import { debugCommand } from "./commands/app-commands.js";
import { matchBuiltinCommand } from "./commands/builtin-commands.js";
import type { AskOptions, CommandHost, PickOptions } from "./commands/command-host.js";
import { selectModel } from "./commands/model-commands.js";
import { forkFromMessage, navigateTree, resumeSession, startNewSession } from "./commands/session-commands.js";
import { openSettingsPanel } from "./commands/settings-panel.js";
import type { NoticeKind } from "./components/chat-notice.js";
import { ChatTranscript } from "./components/chat-transcript.js";
import { CustomEditor, type PromptEditor } from "./components/custom-editor.js";
import { FooterView } from "./components/footer.js";
import { HeaderView } from "./components/header.js";
import { LinesBlock } from "./components/lines-block.js";
import type { MarkdownTransform } from "./components/markdown-transform.js";
import { PendingMessagesView } from "./components/pending-messages.js";
import { StatusLine } from "./components/status-line.js";
import { createAutocomplete } from "./controller/autocomplete.js";
import { editInExternalEditor } from "./controller/external-editor.js";
import { footerStateOf, readGitBranch, SubscriptionProbe } from "./controller/footer-state.js";
import { KeyActions } from "./controller/key-actions.js";
import {
	createRenderer,
	forwardingTui,
	type LayoutRegions,
	mountLayout,
	transcriptLines,
} from "./controller/layout.js";
import { takeUnreportedCrash, watchProcessFailures, writeCrashLog } from "./controller/process-failures.js";
import { ProgramStatusReporter } from "./controller/program-status.js";
import { SubmissionPipeline } from "./controller/submission.js";
import { processSignals, Suspender } from "./controller/suspend.js";
import { TranscriptController } from "./controller/transcript-controller.js";
import { ExtensionHooks } from "./extension-ui/extension-hooks.js";
import { ExtensionRegions } from "./extension-ui/extension-regions.js";
import { createExtensionUiContext, type ExtensionUiHost } from "./extension-ui/ui-context.js";
import type { InteractiveModeOptions } from "./interactive-options.js";
import { boundKey, createAppKeybindings } from "./keybindings/app-keybindings.js";
import { EditorSlot } from "./selectors/editor-slot.js";
import { UserShell } from "./shell/user-shell.js";
import { startupChangelogView } from "./startup/changelog-notice.js";
import { startupDetails } from "./startup/startup-details.js";
import { tmuxKeyboardWarning } from "./startup/tmux-keyboard.js";
import { setActiveUiTheme } from "./theme/active-theme.js";
import { resolveUiTheme, UiTheme } from "./theme/ui-theme.js";

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Shell-quotes an argument of the resume hint when needed. */
function shellQuote(value: string): string {
	return /^[A-Za-z0-9_./:@%+=-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * The interactive mode's coordinator: owns the renderer, the regions and the session binding, and
 * delegates to the transcript controller, submission pipeline, key actions, commands and selectors.
 */
export class InteractiveMode implements CommandHost, ExtensionUiHost {
	/** What components hold: always forwards to the current renderer. */
	readonly tui: TUI;
	private renderer: TUI;
	readonly keys: KeybindingsManager;
	theme: UiTheme;
	readonly agentDir: string;
	readonly appName = APP_NAME;
	private currentEditor: PromptEditor;
	private readonly builtinEditor: CustomEditor;
	private readonly regions: LayoutRegions;
	private readonly chat = new ChatTranscript();
	private readonly headerView: HeaderView;
	private readonly footerView: FooterView;
	private readonly pendingView: PendingMessagesView;
	private readonly statusLine: StatusLine;
	private readonly transcript: TranscriptController;
	private readonly submission: SubmissionPipeline;
	private readonly keyActions: KeyActions;
	private readonly shell: UserShell;
	private readonly programStatus: ProgramStatusReporter;
	private readonly suspender: Suspender;
	private suspendSignalHandler: (() => void) | undefined;
	private readonly mouseActions: { openUrl(url: string): void; pasteText(): void };
	private readonly uiContext: ExtensionUIContext;
	private keybindingLoadProblem: string | undefined;
	private unsubscribe: () => void = () => {};
	private expanded = false;
	private hideThinkingBlocks: boolean;
	private thinkingLabel = "Thinking...";
	private readonly statuses = new Map<string, string>();
	private readonly extensionRegions: ExtensionRegions;
	private autocomplete: AutocompleteProvider | undefined;
	private readonly inputListeners = new Set<InputListener>();
	private autocompleteWrappers: ((current: AutocompleteProvider) => AutocompleteProvider)[] = [];
	private gitBranch: string | undefined;
	private readonly subscription = new SubscriptionProbe(() => this.refreshFooter());
	private readonly extensionHooks: ExtensionHooks;
	/** The current extensions' Markdown transformers, applied by every transcript component at layout. */
	readonly markdownTransform: MarkdownTransform = (markdown, ctx) =>
		this.extensionHooks.transformMarkdown(this.session, markdown, ctx);
	private pendingShellViews: Component[] = [];
	private readonly editorSlot: EditorSlot;
	private quitting = false;
	private finished: (code: number) => void = () => {};
	readonly done: Promise<number>;

	constructor(
		readonly runtime: AgentSessionRuntime,
		private readonly options: InteractiveModeOptions = {},
	) {
		this.done = new Promise((resolve) => {
			this.finished = resolve;
		});
		this.agentDir = runtime.services.agentDir;
		const settings = runtime.session.settingsManager;
		this.applySettingsOverrides(settings);
		const loaded = createAppKeybindings(this.agentDir, options.platform, options.env);
		this.keys = loaded.manager;
		this.keybindingLoadProblem = loaded.problem;
		setKeybindings(this.keys);
		const themes = runtime.session.resourceLoader.getThemes().themes;
		const resolved = resolveUiTheme(settings.getTheme(), themes);
		this.theme = resolved.theme;
		setActiveUiTheme(this.theme);
		this.hideThinkingBlocks = settings.getHideThinkingBlock();
		const terminal = options.terminal ?? new ProcessTerminal();
		this.mouseActions = {
			openUrl: options.openUrl ?? ((url) => openInBrowser(url, options.platform)),
			pasteText: () => this.pasteClipboardText(),
		};
		this.renderer = createRenderer(
			options.tuiMode ?? settings.getTuiMode(),
			terminal,
			settings,
			this.theme,
			this.keys,
			this.mouseActions,
		);
		this.tui = forwardingTui(() => this.renderer);
		this.tui.setClearOnShrink(settings.getClearOnShrink());
		this.suspender = new Suspender(this.tui, options.processSignals ?? processSignals);

		const quietStartup = settings.getQuietStartup();
		this.headerView = new HeaderView(this.theme, this.keys, {
			appName: APP_NAME,
			version: VERSION,
			details: () =>
				quietStartup !== false && !options.verbose
					? []
					: (options.startupDetails ?? startupDetails(this.session, this.keys, homedir())),
		});
		this.footerView = new FooterView(this.theme);
		this.pendingView = new PendingMessagesView(this.theme, () => boundKey(this.keys, "app.message.dequeue"));
		this.statusLine = new StatusLine(this.tui, this.theme);
		this.builtinEditor = new CustomEditor(this.tui, this.theme.editor(this.borderColor()), this.keys, {
			paddingX: settings.getEditorPaddingX(),
			autocompleteMaxVisible: settings.getAutocompleteMaxVisible(),
		});
		this.currentEditor = this.builtinEditor;
		const header = new Container();
		if (quietStartup !== true || options.verbose) header.addChild(this.headerView);
		const pending = new Container();
		pending.addChild(this.pendingView);
		const editorSlot = new Container();
		this.editorSlot = new EditorSlot(this.tui, editorSlot, this.editor, () => this.theme, this.keys);
		const footer = new Container();
		footer.addChild(this.footerView);
		this.regions = {
			header,
			chat: this.chat,
			pending,
			status: this.statusLine,
			widgetsAbove: new Container(),
			editorSlot,
			widgetsBelow: new Container(),
			footer,
		};
		mountLayout(this.renderer, this.regions, settings, this.theme);
		this.extensionRegions = new ExtensionRegions(
			this.regions,
			{ header: this.headerView, footer: this.footerView },
			() => this.tui.requestRender(),
		);

		this.extensionHooks = new ExtensionHooks(
			this.keys,
			() => this.theme,
			(kind, message) => this.notify(kind, message),
		);
		const mode = this;
		this.transcript = new TranscriptController({
			// A getter, so `ctx.ui.setTheme` reaches components created afterwards.
			get theme() {
				return mode.theme;
			},
			chat: this.chat,
			status: this.statusLine,
			interruptKey: () => boundKey(this.keys, "app.interrupt"),
			toolsExpanded: () => this.expanded,
			hideThinking: () => this.hideThinkingBlocks,
			hiddenThinkingLabel: () => this.thinkingLabel,
			refreshPending: () => this.refreshPending(),
			refreshFooter: () => this.refreshFooter(),
			compactionEnded: () => void this.submission.flushCompactionQueue(),
			rebuildChat: () => this.rebuildChat(),
			settled: () => this.movePendingShellViews(),
			requestRender: () => this.tui.requestRender(),
			renderCustomMessage: (message) => this.extensionHooks.renderMessage(this.session, message, this.expanded),
			renderCustomEntry: (entry) => this.extensionHooks.renderEntry(this.session, entry, this.expanded),
			toolRendering: (name) => this.extensionHooks.toolRendering(this.session, name, () => this.tui.requestRender()),
			markdownTransform: this.markdownTransform,
			setProgress: (active) => {
				if (this.session.settingsManager.getShowTerminalProgress()) this.tui.terminal.setProgress(active);
			},
			showCacheMissNotices: () => this.session.settingsManager.getShowCacheMissNotices(),
		});
		this.shell = new UserShell(this.theme);
		this.submission = new SubmissionPipeline({
			get session() {
				return runtime.session;
			},
			getEditorText: () => this.editor.getText(),
			setEditorText: (text) => this.setEditorText(text),
			addToHistory: (text) => this.editor.addToHistory?.(text),
			runBuiltin: (text) => this.runBuiltin(text),
			runShell: (command, exclude, original) => this.runShell(command, exclude, original),
			prompt: (text) => void this.prompt(text),
			notify: (kind, message) => this.notify(kind, message),
			refreshPending: () => this.refreshPending(),
		});
		this.keyActions = new KeyActions({
			get session() {
				return runtime.session;
			},
			keys: this.keys,
			now: options.now ?? Date.now,
			getEditorText: () => this.editor.getText(),
			setEditorText: (text) => this.setEditorText(text),
			submitFollowUp: () => {
				const text = this.expandedEditorText();
				this.editor.setText("");
				this.submission.followUp(text);
			},
			restoreQueued: () => this.submission.restoreQueued(),
			notify: (kind, message) => this.notify(kind, message),
			shellRunning: () => this.shell.isRunning,
			abortShell: () => this.shell.abort(),
			doubleEscapeAction: () => this.session.settingsManager.getDoubleEscapeAction(),
			openTree: () => void this.guard(navigateTree(this)),
			openFork: () => void this.guard(forkFromMessage(this)),
			quit: () => void this.quit(),
			cycleThinking: () => {
				const level = this.session.cycleThinkingLevel();
				if (level) this.notify("info", `Thinking level: ${level}`);
				this.refreshFooter();
			},
			cycleModel: (direction) =>
				void this.guard(
					this.session.cycleModel(direction).then((result) => {
						if (result) this.notify("info", `Model: ${this.session.model?.id ?? "none"}`);
						this.refreshFooter();
					}),
				),
			selectModel: () => void this.guard(selectModel(this)),
			toggleToolsExpanded: () => this.setToolsExpanded(!this.expanded),
			toggleThinkingBlocks: () => {
				this.hideThinkingBlocks = !this.hideThinkingBlocks;
				this.transcript.applyToggles();
			},
			copyLastMessage: () => {
				// Without copy-on-select, a fullscreen selection waits for this key to be copied.
				const screen = this.renderer;
				if (
					screen instanceof TuiAltScreen &&
					!this.session.settingsManager.getFullscreenCopyOnSelect() &&
					screen.hasActiveSelection()
				) {
					void screen.copyActiveSelectionToClipboard();
					return;
				}
				const text = this.session.getLastAssistantText();
				if (!text) this.notify("info", "No agent messages to copy yet.");
				else {
					this.copyToClipboard(text);
					this.notify("info", "Copied last agent message to clipboard");
				}
			},
			newSession: () => void this.guard(startNewSession(this)),
			resumeSession: () => void this.guard(resumeSession(this)),
			suspend: () => this.suspend(),
			openExternalEditor: () => this.openExternalEditor(),
			pasteFromClipboard: () => {
				void pasteFromClipboard(this.editor, this.readClipboard()).then(
					() => {
						this.editor.borderColor = this.borderColor();
						this.tui.requestRender();
					},
					(error) => this.notify("error", `Failed to paste from clipboard: ${messageOf(error)}`),
				);
			},
		});
		this.programStatus = new ProgramStatusReporter(
			(status) => this.tui.terminal.setProgramStatus(status),
			() => this.session.sessionName,
			APP_NAME,
		);
		this.uiContext = createExtensionUiContext(this);
		this.tui.onDebug = () => void this.guard(Promise.resolve(debugCommand.run(this, "")));
		this.wireEditor(this.builtinEditor);
		if (resolved.warning) this.notify("warning", resolved.warning);
	}

	/** The editor in the prompt slot: the built-in one unless an extension replaced it. */
	get editor(): PromptEditor {
		return this.currentEditor;
	}

	get session(): AgentSession {
		return this.runtime.session;
	}

	// ---- lifecycle -------------------------------------------------------------------------------

	/** Starts the UI, binds the session, sends the initial messages; resolves with the exit code. */
	async run(): Promise<number> {
		if (this.options.handleSignals ?? this.options.terminal === undefined) this.installSignalHandlers();
		this.tui.start();
		this.tui.setFocus(this.editor);
		this.runtime.setRebindSession((session) => {
			this.applySettingsOverrides(session.settingsManager);
			return this.bindSession(session);
		});
		await this.bindSession(this.session);
		const changelog = startupChangelogView(this.session, this.theme, this.markdownTransform);
		if (changelog) this.transcript.add(changelog);
		for (const diagnostic of this.options.diagnostics ?? []) this.notify(diagnostic.type, diagnostic.message);
		if (this.keybindingLoadProblem) this.notify("warning", this.keybindingLoadProblem);
		if (this.runtime.modelFallbackMessage) this.notify("warning", this.runtime.modelFallbackMessage);
		const crash = takeUnreportedCrash(this.agentDir);
		if (crash) this.notify("warning", crash);
		// tmux's key setup concerns the process's own terminal, not one handed in by an embedder.
		if (!this.options.terminal) {
			void tmuxKeyboardWarning(this.options.env ?? process.env).then((warning) => {
				if (warning && !this.quitting) this.notify("warning", warning);
			});
		}
		if (!this.session.model) {
			this.notify(
				"warning",
				"No model available. Log in with /login, or set an API key (for example ANTHROPIC_API_KEY).",
			);
		}
		this.tui.requestRender();
		const initial = this.options.initialMessage;
		if (initial !== undefined && initial.trim() !== "") {
			await this.prompt(initial, this.options.initialImages);
		}
		for (const message of this.options.messages ?? []) {
			if (this.quitting) break;
			await this.prompt(message);
		}
		return this.done;
	}

	/**
	 * Subscribes before binding extensions so events from `session_start` handlers are shown, then
	 * renders the session's transcript (cli-modes.md §1).
	 */
	private async bindSession(session: AgentSession): Promise<void> {
		this.unsubscribe();
		this.unsubscribe = session.subscribe((event) => {
			this.programStatus.handle(event);
			this.transcript.handle(event);
			if (event.type === "session_info_changed") this.updateTitle();
			if (event.type === "thinking_level_changed") this.editor.borderColor = this.borderColor();
		});
		this.gitBranch = readGitBranch(session.cwd);
		this.transcript.renderHistory(session.messages);
		await session.bindExtensions({
			uiContext: this.uiContext,
			mode: "tui",
			commandContextActions: {
				waitForIdle: () => this.session.waitForIdle(),
				newSession: (opts) => this.runtime.newSession(opts ?? {}),
				fork: (entryId, opts) => this.runtime.fork(entryId, opts ?? {}),
				navigateTree: async (targetId, opts) => {
					const result = await this.session.navigateTree(targetId, opts ?? {});
					this.rebuildChat();
					if (result.editorText !== undefined) this.setEditorText(result.editorText);
					return result;
				},
				switchSession: (path, opts) => this.runtime.switchSession(path, opts ?? {}),
				reload: () => this.reload(),
			},
			shutdownHandler: () => {
				if (this.session.isIdle) void this.quit();
				else void this.session.waitForIdle().then(() => this.quit());
			},
			onError: (error) => this.notify("error", `Extension error (${error.event}): ${error.error}`),
		});
		for (const diagnostic of this.runtime.takeUnreportedDiagnostics()) {
			this.notify(diagnostic.type, diagnostic.message);
		}
		this.refreshAutocomplete(session);
		this.extensionHooks.bindShortcuts(session);
		this.editor.borderColor = this.borderColor();
		this.updateTitle();
		this.refreshFooter();
		this.refreshPending();
	}

	/**
	 * SIGTERM/SIGHUP: the renderer restores the terminal on its own; here extensions get their
	 * `session_shutdown` and the process exits with 128 + the signal number.
	 */
	private installSignalHandlers(): void {
		const codes = { SIGTERM: 143, SIGHUP: 129 } as const;
		const handlers: (() => void)[] = Object.entries(codes).map(([signal, code]) => {
			const handler = () => void this.quit({ code, fromSignal: true });
			process.on(signal, handler);
			return () => {
				process.off(signal, handler);
			};
		});
		if (process.platform !== "win32") {
			// `kill -TSTP` suspends like Ctrl+Z; each renderer listens only while it runs.
			this.suspendSignalHandler = () => this.suspend();
			this.tui.setSuspendSignalHandler(this.suspendSignalHandler);
			handlers.push(() => {
				this.suspendSignalHandler = undefined;
				this.tui.setSuspendSignalHandler(undefined);
			});
		}
		handlers.push(
			watchProcessFailures(
				{ deadTerminal: () => this.terminate(129), crashed: (error) => this.crash(error) },
				this.options.failureSources,
			),
		);
		this.removeSignalHandlers = () => {
			for (const remove of handlers) remove();
		};
	}

	private removeSignalHandlers: () => void = () => {};

	/** Exits at once: a dead terminal takes no more writes, and a crash has no state worth saving. */
	private terminate(code: number): void {
		this.quitting = true;
		this.removeSignalHandlers();
		this.finished(code);
		(this.options.exit ?? ((exitCode: number) => process.exit(exitCode)))(code);
	}

	/** An uncaught exception: give the terminal back, leave a crash log, exit 1. */
	private crash(error: unknown): void {
		try {
			this.tui.stop();
		} finally {
			const log = writeCrashLog(this.agentDir, error);
			process.stderr.write(`${APP_NAME} crashed: ${messageOf(error)}${log ? `\nCrash log: ${log}` : ""}\n`);
			this.terminate(1);
		}
	}

	/** /quit, double Ctrl+C, Ctrl+D on an empty editor, `ctx.shutdown()` (cli-modes.md §10.9). */
	async quit(options: { code?: number; fromSignal?: boolean } = {}): Promise<void> {
		if (this.quitting) return;
		this.quitting = true;
		const code = options.code ?? 0;
		if (!options.fromSignal) await this.tui.terminal.drainInput(1000);
		const fullscreen = this.tui.mode === "fullscreen";
		const width = this.tui.terminal.columns;
		this.statusLine.clearIndicator();
		// Fullscreen leaves the alternate screen untouched; what reaches the main screen is chosen here.
		this.tui.stop({ preserveScreen: fullscreen });
		if (fullscreen && this.session.settingsManager.getFullscreenExitOutput() === "transcript") {
			const lines = transcriptLines(this.regions, width);
			if (lines.length > 0) this.tui.terminal.write(`${lines.join("\r\n")}\r\n`);
		}
		this.unsubscribe();
		this.shell.abort();
		const manager = this.session.sessionManager;
		const file = this.session.sessionFile;
		const persisted = manager.isPersisted() && file !== undefined && existsSync(file);
		const sessionId = this.session.sessionId;
		try {
			await this.runtime.dispose();
		} catch (error) {
			process.stderr.write(`Error: ${messageOf(error)}\n`);
		}
		this.removeSignalHandlers();
		const stdout = this.options.stdout ?? process.stdout;
		if (stdout.isTTY && persisted && !options.fromSignal) {
			const dir =
				this.options.sessionDirArgument ?? (manager.usesDefaultSessionDir() ? undefined : manager.getSessionDir());
			const dirPart = dir ? ` --session-dir ${shellQuote(dir)}` : "";
			stdout.write(`${this.theme.dim("To resume this session:")}\n${APP_NAME}${dirPart} --session ${sessionId}\n`);
		}
		this.finished(code);
		(this.options.exit ?? ((exitCode: number) => process.exit(exitCode)))(code);
	}

	private suspend(): void {
		if ((this.options.platform ?? process.platform) === "win32") {
			this.notify("warning", "Suspend to background is not supported on Windows");
			return;
		}
		this.suspender.suspend();
	}

	private openExternalEditor(): void {
		const command = this.session.settingsManager.getExternalEditorCommand();
		this.tui.stop({ preserveScreen: this.tui.mode === "fullscreen" });
		const result = editInExternalEditor(command, this.expandedEditorText());
		this.tui.start();
		this.tui.setFocus(this.editor);
		this.tui.requestRender(true);
		if (result.text !== undefined) this.setEditorText(result.text);
		else this.notify("error", `External editor failed: ${result.error}`);
	}

	// ---- prompts and shell -----------------------------------------------------------------------

	private async prompt(text: string, images?: ImageContent[]): Promise<void> {
		try {
			await this.session.prompt(text, images ? { images } : {});
		} catch (error) {
			this.notify("error", messageOf(error));
		}
	}

	private runBuiltin(text: string): boolean {
		const match = matchBuiltinCommand(text);
		if (!match) return false;
		this.editor.addToHistory?.(text);
		void this.guard(Promise.resolve(match.command.run(this, match.argument)));
		return true;
	}

	private runShell(command: string, excludeFromContext: boolean, originalText: string): void {
		if (this.shell.isRunning) {
			this.notify("warning", "A bash command is already running. Press Esc to cancel it first.");
			this.setEditorText(originalText);
			return;
		}
		this.editor.addToHistory?.(originalText);
		const busy = !this.session.isIdle;
		void this.shell.run(
			this.session,
			command,
			excludeFromContext,
			(view) => {
				this.transcript.trackBashView(view);
				if (busy) {
					this.pendingShellViews.push(view);
					this.refreshPending();
				} else this.chat.addChild(view);
				this.tui.requestRender();
			},
			() => this.tui.requestRender(),
		);
	}

	private movePendingShellViews(): void {
		for (const view of this.pendingShellViews) this.chat.addChild(view);
		this.pendingShellViews = [];
		this.refreshPending();
	}

	/** Runs a command or selector flow, reporting failures in the chat. */
	private async guard(work: Promise<void>): Promise<void> {
		try {
			await work;
		} catch (error) {
			this.notify("error", messageOf(error));
		}
	}

	// ---- regions ---------------------------------------------------------------------------------

	private borderColor(): (text: string) => string {
		if (this.editor?.getText().trimStart().startsWith("!")) return (t) => this.theme.fg("bashMode", t);
		const session = this.runtime.session;
		return this.theme.thinkingBorder(session.supportsThinking() ? session.thinkingLevel : "off");
	}

	refreshFooter(): void {
		this.footerView.setState(
			footerStateOf(this.session, {
				gitBranch: this.gitBranch,
				home: homedir(),
				statuses: this.statuses,
				subscription: this.subscription.current(this.session),
			}),
		);
		this.tui.requestRender();
	}

	private refreshPending(): void {
		this.pendingView.setQueues(
			this.session.getSteeringMessages(),
			this.session.getFollowUpMessages(),
			this.submission?.queuedForCompaction ?? [],
		);
		const pending = this.regions.pending;
		pending.clear();
		pending.addChild(this.pendingView);
		for (const view of this.pendingShellViews) pending.addChild(view);
		this.tui.requestRender();
	}

	private updateTitle(): void {
		const cwd = basename(this.session.cwd);
		const name = this.session.sessionName;
		const title = name ? `${APP_NAME} - ${name} - ${cwd}` : `${APP_NAME} - ${cwd}`;
		this.tui.terminal.setTitle(replaceControlCharacters(title));
	}

	rebuildChat(): void {
		this.transcript.renderHistory(this.session.messages);
		this.refreshFooter();
	}

	notify(kind: NoticeKind, message: string): void {
		this.transcript.notice(kind, message);
	}

	showLines(lines: string[]): void {
		this.transcript.add(new LinesBlock(lines));
	}

	showComponent(component: Component): void {
		this.transcript.add(component);
	}

	private refreshAutocomplete(session: AgentSession): void {
		this.autocomplete = createAutocomplete(session, this.autocompleteWrappers, undefined);
		this.editor.setAutocompleteProvider?.(this.autocomplete);
	}

	setEditorText(text: string): void {
		// Re-installing the provider closes a completion menu that belonged to the replaced text.
		if (this.autocomplete) this.editor.setAutocompleteProvider?.(this.autocomplete);
		this.editor.setText(text);
		this.editor.borderColor = this.borderColor();
		this.tui.requestRender();
	}

	getEditorText(): string {
		return this.editor.getText();
	}

	/** The editor text with paste markers expanded (what is submitted or edited externally). */
	private expandedEditorText(): string {
		return this.editor.getExpandedText?.() ?? this.editor.getText();
	}

	/** Connects an editor (built-in or an extension's) to the application keys, submission and border. */
	private wireEditor(editor: PromptEditor): void {
		editor.onAction = (data) => {
			// An open completion menu owns Escape (it closes the menu, cli-modes.md §10.3).
			if (editor.isShowingAutocomplete?.() && this.keys.matches(data, "app.interrupt")) return false;
			return this.extensionHooks.runShortcut(data, this.session) || this.keyActions.handle(data);
		};
		editor.onSubmit = (text) => this.submission.submit(text);
		editor.onChange = () => {
			editor.borderColor = this.borderColor();
		};
	}

	/** `ctx.ui.setEditorComponent`: the new editor takes over the slot and the current text. */
	setEditorComponent(factory: EditorFactory | undefined): void {
		let next: PromptEditor = this.builtinEditor;
		if (factory) {
			try {
				next = factory(this.tui, this.theme.editor(this.borderColor()), this.keys);
			} catch (error) {
				this.notify("error", `Custom editor failed: ${messageOf(error)}`);
				return;
			}
		}
		if (next === this.editor) return;
		const text = this.editor.getText();
		const settings = this.session.settingsManager;
		this.wireEditor(next);
		next.setPaddingX?.(settings.getEditorPaddingX());
		next.setAutocompleteMaxVisible?.(settings.getAutocompleteMaxVisible());
		this.currentEditor = next;
		this.editorSlot.replaceEditor(next);
		this.setEditorText(text);
	}

	private readClipboard(): ClipboardReader {
		return this.options.readClipboard ?? systemClipboardReader(this.options.platform, this.options.env);
	}

	/** A right click in fullscreen on Windows (the renderer decides when): clipboard text into the editor. */
	private pasteClipboardText(): void {
		void this.readClipboard()().then(
			(content) => {
				if (content.text) this.pasteToEditor(content.text);
			},
			(error) => this.notify("error", `Failed to paste from clipboard: ${messageOf(error)}`),
		);
	}

	pasteToEditor(text: string): void {
		this.editor.handleInput(`\x1b[200~${text}\x1b[201~`);
		this.tui.requestRender();
	}

	copyToClipboard(text: string): void {
		// OSC 52: the terminal owns the clipboard, which also works over SSH.
		this.tui.terminal.write(`\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`);
	}

	renderedLines(): readonly string[] {
		return this.tui.render(this.tui.terminal.columns);
	}

	keybindingProblem(): string | undefined {
		return this.keybindingLoadProblem;
	}

	toolsExpanded(): boolean {
		return this.expanded;
	}

	setToolsExpanded(expanded: boolean): void {
		this.expanded = expanded;
		this.headerView.expanded = expanded;
		this.headerView.invalidate();
		this.transcript.applyToggles();
	}

	async reload(): Promise<void> {
		const loaded = createAppKeybindings(this.agentDir, this.options.platform, this.options.env);
		this.keys.setUserBindings(loaded.manager.getUserBindings());
		this.keybindingLoadProblem = loaded.problem;
		if (loaded.problem) this.notify("warning", loaded.problem);
		const settings = this.session.settingsManager;
		// Before `session_start {reload}`, so extensions reading settings there see the overrides too.
		await this.session.reload({ beforeSessionStart: () => this.applySettingsOverrides(settings) });
		this.refreshAutocomplete(this.session);
		this.headerView.invalidate();
		// Lays the transcript out again with the reloaded extensions' Markdown transformers.
		this.chat.invalidate();
		this.notify("success", "✓ Reloaded keybindings, extensions, skills, prompts, themes and context files");
	}

	private applySettingsOverrides(settings: SettingsManager): void {
		if (this.options.settingsOverrides) settings.applyOverrides(this.options.settingsOverrides);
	}

	/**
	 * Moves the same components and focus to a renderer of the other kind; the old one stops with
	 * its screen preserved (cli-modes.md §10.1).
	 */
	private switchRenderer(mode: TuiMode, options: { rebuild?: boolean } = {}): void {
		if ((this.renderer.mode === mode && !options.rebuild) || this.quitting) return;
		const settings = this.session.settingsManager;
		const focused = this.regions.editorSlot.children[0] ?? this.editor;
		this.renderer.stop({ preserveScreen: true });
		const next = createRenderer(mode, this.renderer.terminal, settings, this.theme, this.keys, this.mouseActions);
		next.setClearOnShrink(settings.getClearOnShrink());
		next.onDebug = this.renderer.onDebug;
		next.setSuspendSignalHandler(this.suspendSignalHandler);
		mountLayout(next, this.regions, settings, this.theme);
		for (const listener of this.inputListeners) next.addInputListener(listener);
		this.renderer = next;
		next.start();
		next.setFocus(focused);
		next.requestRender(true);
	}

	openSettings(): Promise<void> {
		return openSettingsPanel(this, {
			setTuiMode: (mode) => this.switchRenderer(mode),
			tuiMode: () => this.renderer.mode,
			setHideThinking: (hide) => {
				this.hideThinkingBlocks = hide;
				this.transcript.applyToggles();
			},
			reconfigureRenderer: () => this.switchRenderer(this.renderer.mode, { rebuild: true }),
			applyTheme: (setting) => this.applyThemeSetting(setting),
			applyEditorOptions: () => {
				const settings = this.session.settingsManager;
				this.editor.setPaddingX?.(settings.getEditorPaddingX());
				this.editor.setAutocompleteMaxVisible?.(settings.getAutocompleteMaxVisible());
				this.tui.requestRender();
			},
			setClearOnShrink: (on) => this.tui.setClearOnShrink(on),
			refreshAutocomplete: () => this.refreshAutocomplete(this.session),
		});
	}

	/**
	 * A theme chosen in /settings: a `light/dark` pair shows its dark side (the fallback when the
	 * terminal's background is unknown, resources.md §11.2); the transcript is rebuilt in it.
	 */
	private applyThemeSetting(setting: string): void {
		const pair = setting.split("/");
		const name = pair.length === 2 ? pair[1]!.trim() : setting;
		// `system` is drawn with the built-in theme here, so choosing it is no error.
		const resolved = resolveUiTheme(name === "system" ? undefined : name, this.availableThemes());
		this.theme = resolved.theme;
		setActiveUiTheme(this.theme);
		this.editor.borderColor = this.borderColor();
		this.rebuildChat();
		if (resolved.warning) this.notify("warning", resolved.warning);
	}

	// ---- dialogs ---------------------------------------------------------------------------------

	showInPlaceOfEditor(component: Component): () => void {
		return this.editorSlot.show(component);
	}

	pick(title: string, items: SelectItem[], options: PickOptions = {}): Promise<SelectItem | undefined> {
		return this.editorSlot.pick(title, items, options);
	}

	ask(title: string, options: AskOptions = {}): Promise<string | undefined> {
		return this.editorSlot.ask(title, options);
	}

	block(kind: "question" | "permission", title: string): () => void {
		return this.programStatus.block(kind, title);
	}

	// ---- extension UI host -----------------------------------------------------------------------

	themeData(): Theme {
		return this.theme.source;
	}

	availableThemes(): Theme[] {
		return this.session.resourceLoader.getThemes().themes;
	}

	setTheme(theme: Theme): void {
		this.theme = UiTheme.fromResource(theme);
		setActiveUiTheme(this.theme);
		this.notify("info", `Theme "${theme.name}" applies to new output; restart for all components.`);
	}

	setStatus(key: string, text: string | undefined): void {
		if (text === undefined) this.statuses.delete(key);
		else this.statuses.set(key, text);
		this.refreshFooter();
	}

	setWidget(key: string, component: DisposableComponent | undefined, placement: "aboveEditor" | "belowEditor"): void {
		this.extensionRegions.setWidget(key, component, placement);
	}

	setHeader(component: DisposableComponent | undefined): void {
		this.extensionRegions.setHeader(component);
	}

	setFooter(factory: Parameters<ExtensionUIContext["setFooter"]>[0]): void {
		this.extensionRegions.setFooter(
			factory?.(this.tui, this.theme.source, {
				getGitBranch: () => this.gitBranch,
				getExtensionStatuses: () => this.statuses,
			}),
		);
	}

	setWorkingMessage(message: string | undefined): void {
		this.statusLine.workingMessage = message;
	}

	setWorkingVisible(visible: boolean): void {
		this.statusLine.workingVisible = visible;
		if (!visible) this.statusLine.clearIndicator();
	}

	setWorkingIndicator(options: { frames?: string[]; intervalMs?: number } | undefined): void {
		this.statusLine.indicator = options;
	}

	setHiddenThinkingLabel(label: string | undefined): void {
		this.thinkingLabel = label ?? "Thinking...";
		this.transcript.applyToggles();
	}

	setTitle(title: string): void {
		this.tui.terminal.setTitle(replaceControlCharacters(title));
	}

	addInputListener(listener: InputListener): () => void {
		this.inputListeners.add(listener);
		this.renderer.addInputListener(listener);
		return () => {
			this.inputListeners.delete(listener);
			this.renderer.removeInputListener(listener);
		};
	}

	addAutocompleteWrapper(wrapper: (current: AutocompleteProvider) => AutocompleteProvider): void {
		this.autocompleteWrappers = [...this.autocompleteWrappers, wrapper];
		this.refreshAutocomplete(this.session);
	}
}
