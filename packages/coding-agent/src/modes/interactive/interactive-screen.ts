import { homedir } from "node:os";
import {
	type AutocompleteProvider,
	type ClipboardReader,
	type Component,
	Container,
	type KeybindingsManager,
	ProcessTerminal,
	type SelectItem,
	setKeybindings,
	systemClipboardReader,
	type TUI,
} from "@tau/tui";
import { APP_NAME, VERSION } from "../../config/app-identity.js";
import type { SettingsManager } from "../../config/index.js";
import type { AgentSession } from "../../core/agent-session/agent-session.js";
import { errorMessage } from "../../core/errors.js";
import { openInBrowser } from "../../core/platform/open-url.js";
import type { Theme } from "../../core/resources/index.js";
import { resolveTheme } from "../../core/resources/themes/builtin-theme.js";
import type { AgentSessionRuntime } from "../../sdk/agent-session-runtime.js";
import type { AskOptions, PickOptions } from "./commands/command-host.js";
import type { NoticeKind } from "./components/chat-notice.js";
import { ChatTranscript } from "./components/chat-transcript.js";
import { CustomEditor, type PromptEditor } from "./components/custom-editor.js";
import { FooterView } from "./components/footer.js";
import { HeaderView } from "./components/header.js";
import { PendingMessagesView } from "./components/pending-messages.js";
import { StatusLine } from "./components/status-line.js";
import { editInExternalEditor } from "./controller/external-editor.js";
import { createRenderer, forwardingTui, type LayoutRegions, mountLayout } from "./controller/layout.js";
import { processSignals, Suspender } from "./controller/suspend.js";
import type { InteractiveModeOptions } from "./interactive-options.js";
import { boundKey, createAppKeybindings } from "./keybindings/app-keybindings.js";
import { EditorSlot } from "./selectors/editor-slot.js";
import { startupDetails } from "./startup/startup-details.js";
import { setActiveTheme, setRegisteredThemes } from "./theme/active-theme.js";
import { editorTheme } from "./theme/component-themes.js";

/**
 * The terminal side of the interactive mode: the renderer (fullscreen or regular), the layout regions
 * with their built-in views, the prompt editor and the dialogs shown in its place. `InteractiveMode`
 * adds the session binding, lifecycle and commands on top (docs/tui.md).
 */
export abstract class InteractiveScreen {
	/** What components hold: always forwards to the current renderer. */
	readonly tui: TUI;
	protected renderer: TUI;
	readonly keys: KeybindingsManager;
	theme: Theme;
	readonly agentDir: string;
	protected currentEditor: PromptEditor;
	protected readonly builtinEditor: CustomEditor;
	protected readonly regions: LayoutRegions;
	protected readonly chat = new ChatTranscript({
		// The screen and one more of scroll-back; the rest of a resumed history follows in the background.
		firstFrameLines: () => 2 * this.tui.terminal.rows,
		reveal: () => (this.tui.mode === "regular" ? "whole" : "progressive"),
		requestRender: () => this.tui.requestRender(),
	});
	protected readonly headerView: HeaderView;
	protected readonly footerView: FooterView;
	protected readonly pendingView: PendingMessagesView;
	protected readonly statusLine: StatusLine;
	protected readonly suspender: Suspender;
	protected readonly mouseActions: { openUrl(url: string): void; pasteText(): void };
	protected readonly editorSlot: EditorSlot;
	protected keybindingLoadProblem: string | undefined;
	protected autocomplete: AutocompleteProvider | undefined;
	/** Why the configured theme could not be used, reported once the transcript exists. */
	protected readonly themeWarning: string | undefined;

	constructor(
		readonly runtime: AgentSessionRuntime,
		protected readonly options: InteractiveModeOptions,
	) {
		this.agentDir = runtime.services.agentDir;
		const settings = runtime.session.settingsManager;
		this.applySettingsOverrides(settings);
		const loaded = createAppKeybindings(this.agentDir, options.platform, options.env);
		this.keys = loaded.manager;
		this.keybindingLoadProblem = loaded.problem;
		setKeybindings(this.keys);
		const themes = runtime.session.resourceLoader.getThemes().themes;
		setRegisteredThemes(themes);
		const resolved = resolveTheme(settings.getTheme(), themes);
		this.theme = resolved.theme;
		this.themeWarning = resolved.warning;
		setActiveTheme(this.theme);
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
		this.builtinEditor = new CustomEditor(this.tui, editorTheme(this.theme, this.borderColor()), this.keys, {
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
	}

	abstract notify(kind: NoticeKind, message: string): void;

	protected applySettingsOverrides(settings: SettingsManager): void {
		if (this.options.settingsOverrides) settings.applyOverrides(this.options.settingsOverrides);
	}

	/** The editor in the prompt slot: the built-in one unless an extension replaced it. */
	get editor(): PromptEditor {
		return this.currentEditor;
	}

	get session(): AgentSession {
		return this.runtime.session;
	}

	currentRenderer(): TUI {
		return this.renderer;
	}

	useTheme(theme: Theme): void {
		this.theme = theme;
		setActiveTheme(theme);
	}

	protected borderColor(): (text: string) => string {
		if (this.editor?.getText().trimStart().startsWith("!")) return (t) => this.theme.fg("bashMode", t);
		const session = this.runtime.session;
		return this.theme.getThinkingBorderColor(session.supportsThinking() ? session.thinkingLevel : "off");
	}

	refreshEditorBorder(): void {
		this.editor.borderColor = this.borderColor();
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
	expandedEditorText(): string {
		return this.editor.getExpandedText?.() ?? this.editor.getText();
	}

	readClipboard(): ClipboardReader {
		return this.options.readClipboard ?? systemClipboardReader(this.options.platform, this.options.env);
	}

	/** A right click in fullscreen on Windows (the renderer decides when): clipboard text into the editor. */
	protected pasteClipboardText(): void {
		void this.readClipboard()().then(
			(content) => {
				if (content.text) this.pasteToEditor(content.text);
			},
			(error) => this.notify("error", `Failed to paste from clipboard: ${errorMessage(error)}`),
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

	showInPlaceOfEditor(component: Component): () => void {
		return this.editorSlot.show(component);
	}

	pick(title: string, items: SelectItem[], options: PickOptions = {}): Promise<SelectItem | undefined> {
		return this.editorSlot.pick(title, items, options);
	}

	ask(title: string, options: AskOptions = {}): Promise<string | undefined> {
		return this.editorSlot.ask(title, options);
	}

	edit(title: string, options: { prefill?: string; signal?: AbortSignal } = {}): Promise<string | undefined> {
		return this.editorSlot.edit(title, options);
	}

	openExternalEditor(): void {
		const command = this.session.settingsManager.getExternalEditorCommand();
		this.tui.stop({ preserveScreen: this.tui.mode === "fullscreen" });
		const result = editInExternalEditor(command, this.expandedEditorText());
		this.tui.start();
		this.tui.setFocus(this.editor);
		this.tui.requestRender(true);
		if (result.text !== undefined) this.setEditorText(result.text);
		else this.notify("error", `External editor failed: ${result.error}`);
	}

	suspend(): void {
		if ((this.options.platform ?? process.platform) === "win32") {
			this.notify("warning", "Suspend to background is not supported on Windows");
			return;
		}
		this.suspender.suspend();
	}
}
