import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { basename } from "node:path";
import type { ImageContent } from "@tau/ai";
import { type Component, replaceControlCharacters, type TuiMode } from "@tau/tui";
import { APP_NAME } from "../../config/app-identity.js";
import type { AgentSession } from "../../core/agent-session/agent-session.js";
import { errorMessage } from "../../core/errors.js";
import type { EditorFactory, ExtensionUIContext } from "../../core/extensions/index.js";
import { resolveTheme } from "../../core/resources/themes/builtin-theme.js";
import type { AgentSessionRuntime } from "../../sdk/agent-session-runtime.js";
import { debugCommand } from "./commands/app-commands.js";
import { matchBuiltinCommand } from "./commands/builtin-commands.js";
import type { CommandHost } from "./commands/command-host.js";
import { openSettingsPanel } from "./commands/settings-panel.js";
import type { NoticeKind } from "./components/chat-notice.js";
import type { PromptEditor } from "./components/custom-editor.js";
import { LinesBlock } from "./components/lines-block.js";
import type { MarkdownTransform } from "./components/markdown-transform.js";
import { type AppKeyOwner, appKeyActionHost } from "./controller/app-key-host.js";
import { createAutocomplete } from "./controller/autocomplete.js";
import { ExitPaths } from "./controller/exit-paths.js";
import { footerStateOf, SessionTotals, SubscriptionProbe } from "./controller/footer-state.js";
import { KeyActions } from "./controller/key-actions.js";
import { createRenderer, mountLayout, transcriptLines } from "./controller/layout.js";
import { chooseForReadOnlySession } from "./controller/locked-session.js";
import { takeUnreportedCrash } from "./controller/process-failures.js";
import { ProgramStatusReporter } from "./controller/program-status.js";
import { SubmissionPipeline } from "./controller/submission.js";
import { historyEnd, TranscriptController } from "./controller/transcript-controller.js";
import { ExtensionHooks } from "./extension-ui/extension-hooks.js";
import { ExtensionRegions } from "./extension-ui/extension-regions.js";
import { createExtensionUiContext } from "./extension-ui/ui-context.js";
import { type ExtensionUiOwner, ExtensionUiSurface } from "./extension-ui/ui-surface.js";
import type { InteractiveModeOptions } from "./interactive-options.js";
import { InteractiveScreen } from "./interactive-screen.js";
import { boundKey, createAppKeybindings } from "./keybindings/app-keybindings.js";
import { resumeCommand } from "./resume-hint.js";
import { UserShell } from "./shell/user-shell.js";
import { startupChangelogView } from "./startup/changelog-notice.js";
import { tmuxKeyboardWarning } from "./startup/tmux-keyboard.js";
import { setRegisteredThemes } from "./theme/active-theme.js";
import { editorTheme } from "./theme/component-themes.js";

/**
 * The interactive mode's coordinator: owns the renderer, the regions and the session binding, and
 * delegates to the transcript controller, submission pipeline, key actions, commands and selectors.
 */
export class InteractiveMode extends InteractiveScreen implements CommandHost, AppKeyOwner, ExtensionUiOwner {
	readonly appName = APP_NAME;
	private readonly transcript: TranscriptController;
	private readonly submission: SubmissionPipeline;
	private readonly keyActions: KeyActions;
	private readonly shell: UserShell;
	private readonly programStatus: ProgramStatusReporter;
	private readonly uiContext: ExtensionUIContext;
	private unsubscribe: () => void = () => {};
	private expanded = false;
	private hideThinkingBlocks: boolean;
	private readonly extensionUi: ExtensionUiSurface;
	private readonly subscription = new SubscriptionProbe(() => this.refreshFooter());
	private readonly sessionTotals = new SessionTotals();
	/**
	 * The transcript shows only the end of a session that is still opening (see `finishOpening`), and
	 * the session's diagnostics from before, already reported with the startup's.
	 */
	private historyFromEnd: { reported: number } | undefined;
	private readonly extensionHooks: ExtensionHooks;
	/** The current extensions' Markdown transformers, applied by every transcript component at layout. */
	readonly markdownTransform: MarkdownTransform = (markdown, ctx) =>
		this.extensionHooks.transformMarkdown(this.session, markdown, ctx);
	private pendingShellViews: Component[] = [];
	private readonly exits: ExitPaths;

	constructor(runtime: AgentSessionRuntime, options: InteractiveModeOptions = {}) {
		super(runtime, options);
		this.hideThinkingBlocks = runtime.session.settingsManager.getHideThinkingBlock();
		this.extensionUi = new ExtensionUiSurface(
			this,
			new ExtensionRegions(this.regions, { header: this.headerView, footer: this.footerView }, () =>
				this.tui.requestRender(),
			),
			this.statusLine,
		);
		this.extensionUi.footerData.onBranchChange(() => this.refreshFooter());
		this.exits = new ExitPaths(this, options);

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
			hiddenThinkingLabel: () => this.extensionUi.hiddenThinkingLabel,
			refreshPending: () => this.refreshPending(),
			refreshFooter: () => this.refreshFooter(),
			compactionEnded: () => void this.submission.flushCompactionQueue(),
			rebuildChat: (options) => this.rebuildChat(options),
			settled: () => this.movePendingShellViews(),
			requestRender: () => this.tui.requestRender(),
			deferUpdate: (key, apply) => this.tui.deferUpdate(key, apply),
			flushUpdate: (key) => this.tui.flushUpdate(key),
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
			refuseWhenReadOnly: () => {
				if (!this.session.sessionManager.isReadOnly()) return false;
				void this.guard(chooseForReadOnlySession(this));
				return true;
			},
			notify: (kind, message) => this.notify(kind, message),
			refreshPending: () => this.refreshPending(),
		});
		this.keyActions = new KeyActions(
			appKeyActionHost(this, { submission: this.submission, shell: this.shell, now: options.now ?? Date.now }),
		);
		this.programStatus = new ProgramStatusReporter(
			(status) => this.tui.terminal.setProgramStatus(status),
			() => this.session.sessionName,
			APP_NAME,
		);
		this.uiContext = createExtensionUiContext(this.extensionUi);
		this.tui.onDebug = () => void this.guard(Promise.resolve(debugCommand.run(this, "")));
		this.wireEditor(this.builtinEditor);
		if (this.themeWarning) this.notify("warning", this.themeWarning);
	}

	// ---- lifecycle -------------------------------------------------------------------------------

	/** Starts the UI, binds the session, sends the initial messages; resolves with the exit code. */
	async run(): Promise<number> {
		if (this.options.handleSignals ?? this.options.terminal === undefined) this.exits.install();
		this.tui.start();
		try {
			await this.start();
		} catch (error) {
			// The caller prints the error: the terminal must be the user's again first.
			this.tui.stop();
			this.exits.uninstall();
			throw error;
		}
		await this.guard(this.lockedSessionChoice ?? Promise.resolve());
		if (this.exits.stopping) return this.exits.done;
		const initial = this.options.initialMessage;
		if (initial !== undefined && initial.trim() !== "") {
			await this.prompt(initial, this.options.initialImages);
		}
		for (const message of this.options.messages ?? []) {
			if (this.exits.stopping) break;
			await this.prompt(message);
		}
		return this.exits.done;
	}

	/** Everything between starting the renderer and the first prompt (docs/design/interactive.md#startup). */
	private async start(): Promise<void> {
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
				if (warning && !this.exits.stopping) this.notify("warning", warning);
			});
		}
		if (!this.session.model) {
			this.notify(
				"warning",
				"No model available. Log in with /login, or set an API key (for example ANTHROPIC_API_KEY).",
			);
		}
		if (this.historyFromEnd) this.finishOpening(this.historyFromEnd.reported);
		else this.tui.requestRender();
	}

	/**
	 * A long session's first frame shows its branch's end; the rest of the file is read right after it,
	 * before any input is handled (docs/design/session-runtime.md#opening-a-long-session).
	 */
	private finishOpening(reported: number): void {
		this.historyFromEnd = undefined;
		this.tui.renderNow();
		this.session.finishOpening();
		for (const diagnostic of this.session.sessionManager.getDiagnostics().slice(reported)) {
			this.notify("warning", diagnostic.message);
		}
		this.transcript.completeHistory(this.session.messages);
		this.refreshFooter();
	}

	/**
	 * Subscribes before binding extensions so events from `session_start` handlers are shown, then
	 * renders the session's transcript (docs/design/cli.md#run-modes).
	 */
	private async bindSession(session: AgentSession): Promise<void> {
		this.unsubscribe();
		this.unsubscribe = session.subscribe((event) => {
			this.programStatus.handle(event);
			this.transcript.handle(event);
			if (event.type === "session_info_changed") this.updateTitle();
			if (event.type === "thinking_level_changed") this.editor.borderColor = this.borderColor();
		});
		this.extensionUi.footerData.setCwd(session.cwd);
		// Extensions may open the session fully while binding; the history is completed after the first frame.
		this.historyFromEnd = session.isOpening
			? { reported: session.sessionManager.getDiagnostics().length }
			: undefined;
		this.transcript.renderHistory(session.isOpening ? historyEnd(session, this.tui.terminal.rows) : session.messages);
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
		// A session another process holds: ask once, now (the start waits for the answer).
		if (session.sessionManager.getLockHolder()) this.lockedSessionChoice = chooseForReadOnlySession(this);
	}

	get isSuspended(): boolean {
		return this.suspender.isSuspended;
	}

	/** The question about a session another process holds; the start waits for its answer. */
	private lockedSessionChoice: Promise<void> | undefined;

	/** /quit, double Ctrl+C, Ctrl+D on an empty editor, `ctx.shutdown()` (docs/design/interactive.md#exit). */
	async quit(options: { code?: number; fromSignal?: boolean } = {}): Promise<void> {
		if (this.exits.stopping) return;
		this.exits.stopping = true;
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
		this.extensionUi.footerData.dispose();
		this.shell.abort();
		const manager = this.session.sessionManager;
		const file = this.session.sessionFile;
		const persisted = manager.isPersisted() && file !== undefined && existsSync(file);
		try {
			await this.runtime.dispose();
		} catch (error) {
			process.stderr.write(`Error: ${errorMessage(error)}\n`);
		}
		this.exits.uninstall();
		const stdout = this.options.stdout ?? process.stdout;
		if (stdout.isTTY && persisted && !options.fromSignal) {
			stdout.write(`${this.theme.dim("To resume this session:")}\n${resumeCommand(file)}\n`);
		}
		this.exits.exit(code);
	}

	// ---- prompts and shell -----------------------------------------------------------------------

	private async prompt(text: string, images?: ImageContent[]): Promise<void> {
		try {
			await this.session.prompt(text, images ? { images } : {});
		} catch (error) {
			this.notify("error", errorMessage(error));
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
	async guard(work: Promise<void>): Promise<void> {
		try {
			await work;
		} catch (error) {
			this.notify("error", errorMessage(error));
		}
	}

	// ---- regions ---------------------------------------------------------------------------------

	refreshFooter(): void {
		this.footerView.refresh(() =>
			footerStateOf(this.session, this.sessionTotals, {
				gitBranch: this.extensionUi.footerData.getGitBranch() ?? undefined,
				home: homedir(),
				statuses: this.extensionUi.statuses,
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

	rebuildChat(options?: { compactionLast?: boolean }): void {
		this.transcript.renderHistory(this.session.messages, options);
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

	refreshAutocomplete(session: AgentSession = this.session): void {
		this.autocomplete = createAutocomplete(session, this.extensionUi.wrappers(), undefined);
		this.editor.setAutocompleteProvider?.(this.autocomplete);
	}

	/** Connects an editor (built-in or an extension's) to the application keys, submission and border. */
	private wireEditor(editor: PromptEditor): void {
		editor.onAction = (data) => {
			// An open completion menu owns Escape (it closes the menu, docs/design/interactive.md#submission-and-keys).
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
				next = factory(this.tui, editorTheme(this.theme, this.borderColor()), this.keys);
			} catch (error) {
				this.notify("error", `Custom editor failed: ${errorMessage(error)}`);
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

	toggleThinkingBlocks(): void {
		this.hideThinkingBlocks = !this.hideThinkingBlocks;
		this.transcript.applyToggles();
	}

	applyTranscriptToggles(): void {
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
		setRegisteredThemes(this.extensionUi.availableThemes());
		this.refreshAutocomplete(this.session);
		this.headerView.invalidate();
		// Lays the transcript out again with the reloaded extensions' Markdown transformers.
		this.chat.invalidate();
		this.notify("success", "✓ Reloaded keybindings, extensions, skills, prompts, themes and context files");
	}

	/**
	 * Moves the same components and focus to a renderer of the other kind; the old one stops with
	 * its screen preserved (docs/design/interactive.md#layout).
	 */
	protected switchRenderer(mode: TuiMode, options: { rebuild?: boolean } = {}): void {
		if ((this.renderer.mode === mode && !options.rebuild) || this.exits.stopping) return;
		const settings = this.session.settingsManager;
		const focused = this.regions.editorSlot.children[0] ?? this.editor;
		this.renderer.stop({ preserveScreen: true });
		const next = createRenderer(mode, this.renderer.terminal, settings, this.theme, this.keys, this.mouseActions);
		next.setClearOnShrink(settings.getClearOnShrink());
		next.onDebug = this.renderer.onDebug;
		next.setSuspendSignalHandler(this.exits.suspendSignalHandler);
		mountLayout(next, this.regions, settings, this.theme);
		for (const listener of this.extensionUi.inputListeners) next.addInputListener(listener);
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
	 * terminal's background is unknown, docs/design/resources.md#theme-setting-values); the transcript is rebuilt in it.
	 */
	private applyThemeSetting(setting: string): void {
		const pair = setting.split("/");
		const name = pair.length === 2 ? pair[1]!.trim() : setting;
		const resolved = resolveTheme(name, this.extensionUi.availableThemes());
		this.useTheme(resolved.theme);
		this.refreshEditorBorder();
		this.rebuildChat();
		if (resolved.warning) this.notify("warning", resolved.warning);
	}

	// ---- dialogs ---------------------------------------------------------------------------------

	block(kind: "question" | "permission", title: string): () => void {
		return this.programStatus.block(kind, title);
	}
}
