import {
	Container,
	Editor,
	type EditorOptions,
	type Focusable,
	getKeybindings,
	type KeybindingsManager,
	type SettingItem,
	SettingsList,
	Spacer,
	Text,
	type TUI,
} from "@tau/tui";
import { keyHint } from "../keybindings/key-hints.js";
import type { FieldDialog } from "../selectors/field-dialog.js";
import { textPrompt } from "../selectors/text-prompt.js";
import { activeTheme } from "../theme/active-theme.js";
import { editorTheme, settingsListTheme } from "../theme/component-themes.js";

/**
 * Input dialogs under the constructor signatures extensions and SDK hosts know (docs/extensions.md),
 * built from tau's own prompt, editor and settings list.
 */

export interface ExtensionInputOptions {
	tui?: TUI;
	timeout?: number;
	initialValue?: string;
	description?: string;
}

/** `ctx.ui.input` as a component: one line; Enter submits, Escape cancels. */
export class ExtensionInputComponent extends Container implements Focusable {
	private readonly prompt: FieldDialog;

	constructor(
		title: string,
		placeholder: string | undefined,
		onSubmit: (value: string) => void,
		onCancel: () => void,
		opts: ExtensionInputOptions = {},
	) {
		super();
		const heading = opts.description ? `${title}\n${opts.description}` : title;
		this.prompt = textPrompt(
			activeTheme(),
			getKeybindings(),
			heading,
			{
				...(placeholder ? { placeholder } : {}),
				...(opts.initialValue ? { prefill: opts.initialValue } : {}),
			},
			(value) => (value === undefined ? onCancel() : onSubmit(value)),
		);
		this.addChild(this.prompt);
	}

	get focused(): boolean {
		return this.prompt.focused;
	}

	set focused(value: boolean) {
		this.prompt.focused = value;
	}

	handleInput(data: string): void {
		this.prompt.handleInput(data);
	}

	dispose(): void {}
}

export interface ExtensionEditorOptions extends EditorOptions {
	description?: string;
}

/** `ctx.ui.editor` as a component: a multi-line editor; Enter submits, Escape cancels. */
export class ExtensionEditorComponent extends Container implements Focusable {
	private readonly editor: Editor;

	constructor(
		tui: TUI,
		private readonly keybindings: KeybindingsManager,
		title: string,
		prefill: string | undefined,
		onSubmit: (value: string) => void,
		private readonly onCancel: () => void,
		options: ExtensionEditorOptions = {},
	) {
		super();
		const theme = activeTheme();
		this.addChild(new Text(theme.fg("accent", title), 1, 0));
		if (options.description) this.addChild(new Text(theme.fg("muted", options.description), 1, 0));
		this.editor = new Editor(
			tui,
			editorTheme(theme, (text) => theme.fg("border", text)),
			options,
		);
		if (prefill) this.editor.setText(prefill);
		this.editor.onSubmit = onSubmit;
		this.addChild(this.editor);
		this.addChild(new Text(keyHint("tui.select.cancel", "cancel"), 1, 0));
	}

	get focused(): boolean {
		return this.editor.focused;
	}

	set focused(value: boolean) {
		this.editor.focused = value;
	}

	handleInput(data: string): void {
		if (this.keybindings.matches(data, "tui.select.cancel")) this.onCancel();
		else this.editor.handleInput(data);
	}
}

/**
 * The sign-in dialog of `/login`: the flow calls its `show*` methods as it goes; `signal` aborts when
 * the user presses Escape, which also completes the dialog unsuccessfully.
 */
export class LoginDialogComponent extends Container implements Focusable {
	private readonly controller = new AbortController();
	private readonly body = new Container();
	private prompt: FieldDialog | undefined;
	private wantsFocus = false;

	constructor(
		private readonly tui: TUI,
		providerId: string,
		private readonly onComplete: (success: boolean, message?: string) => void,
		providerNameOverride?: string,
		titleOverride?: string,
	) {
		super();
		const theme = activeTheme();
		this.addChild(new Text(theme.bold(titleOverride ?? `Log in to ${providerNameOverride ?? providerId}`), 1, 0));
		this.addChild(new Spacer(1));
		this.addChild(this.body);
		this.addChild(new Text(keyHint("tui.select.cancel", "cancel"), 1, 0));
	}

	get focused(): boolean {
		return this.wantsFocus;
	}

	set focused(value: boolean) {
		this.wantsFocus = value;
		if (this.prompt) this.prompt.focused = value;
	}

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	private show(lines: string[]): void {
		this.prompt = undefined;
		this.body.clear();
		for (const line of lines) this.body.addChild(new Text(line, 1, 0));
		this.tui.requestRender();
	}

	showAuth(url: string, instructions?: string): void {
		const theme = activeTheme();
		this.show([...(instructions ? [instructions] : []), theme.fg("accent", url)]);
	}

	showDeviceCode(info: { userCode: string; verificationUri: string }): void {
		this.show([`Open ${info.verificationUri}`, `and enter the code ${activeTheme().bold(info.userCode)}`]);
	}

	showManualInput(prompt: string): Promise<string> {
		return this.showPrompt(prompt);
	}

	/** Resolves with the typed answer; Escape rejects it and completes the dialog unsuccessfully. */
	showPrompt(message: string, placeholder?: string): Promise<string> {
		this.body.clear();
		return new Promise((resolve, reject) => {
			this.prompt = textPrompt(
				activeTheme(),
				getKeybindings(),
				message,
				placeholder ? { placeholder } : {},
				(value) => {
					if (value !== undefined) resolve(value);
					else {
						reject(new Error("Login cancelled"));
						this.cancel();
					}
				},
			);
			this.prompt.focused = this.wantsFocus;
			this.body.addChild(this.prompt);
			this.tui.requestRender();
		});
	}

	showDetails(lines: string[]): void {
		this.show(lines);
	}

	showInfo(message: string, links: readonly { url: string; label?: string }[] = []): void {
		this.show([message, ...links.map((link) => (link.label ? `${link.label}: ${link.url}` : link.url))]);
	}

	showWaiting(message: string): void {
		this.show([activeTheme().fg("muted", message)]);
	}

	showProgress(message: string): void {
		this.show([message]);
	}

	handleInput(data: string): void {
		if (this.prompt) this.prompt.handleInput(data);
		else if (getKeybindings().matches(data, "tui.select.cancel")) this.cancel();
	}

	private cancel(): void {
		if (this.controller.signal.aborted) return;
		this.controller.abort();
		this.onComplete(false, "Login cancelled");
	}
}

/** The boolean and choice settings a settings selector shows, and the callback each change goes to. */
const SETTING_ROWS: readonly { key: string; label: string; values?: readonly string[]; callback: string }[] = [
	{ key: "autoCompact", label: "Auto-compact", callback: "onAutoCompactChange" },
	{ key: "showImages", label: "Show images", callback: "onShowImagesChange" },
	{ key: "autoResizeImages", label: "Auto-resize images", callback: "onAutoResizeImagesChange" },
	{ key: "blockImages", label: "Block images", callback: "onBlockImagesChange" },
	{ key: "enableSkillCommands", label: "Skill commands", callback: "onEnableSkillCommandsChange" },
	{ key: "steeringMode", label: "Steering mode", values: ["one-at-a-time", "all"], callback: "onSteeringModeChange" },
	{ key: "followUpMode", label: "Follow-up mode", values: ["one-at-a-time", "all"], callback: "onFollowUpModeChange" },
	{ key: "hideThinkingBlock", label: "Hide thinking", callback: "onHideThinkingBlockChange" },
	{ key: "showCacheMissNotices", label: "Cache miss notices", callback: "onShowCacheMissNoticesChange" },
	{ key: "collapseChangelog", label: "Collapse changelog", callback: "onCollapseChangelogChange" },
	{
		key: "doubleEscapeAction",
		label: "Double Escape",
		values: ["tree", "fork", "none"],
		callback: "onDoubleEscapeActionChange",
	},
	{
		key: "treeFilterMode",
		label: "Tree filter",
		values: ["default", "no-tools", "user-only", "labeled-only", "all"],
		callback: "onTreeFilterModeChange",
	},
	{ key: "showHardwareCursor", label: "Hardware cursor", callback: "onShowHardwareCursorChange" },
	{ key: "clearOnShrink", label: "Clear on shrink", callback: "onClearOnShrinkChange" },
	{ key: "showTerminalProgress", label: "Terminal progress", callback: "onShowTerminalProgressChange" },
	{ key: "tuiMode", label: "TUI mode", values: ["fullscreen", "regular"], callback: "onTuiModeChange" },
	{ key: "fullscreenCopyOnSelect", label: "Copy on select", callback: "onFullscreenCopyOnSelectChange" },
];

/** The current values `SettingsSelectorComponent` shows, such as the theme and the themes available. */
export type SettingsConfig = Record<string, unknown> & { currentTheme?: string; availableThemes?: string[] };
/** Callbacks of `SettingsSelectorComponent`: cancel, and what to do when the user changes a setting. */
export type SettingsCallbacks = Record<string, unknown> & {
	onCancel: () => void;
	onThemeChange?: (theme: string) => void;
};

/**
 * `/settings` as a component: one row per setting the config carries; cycling a value calls its
 * `on…Change` callback with the new value (booleans as booleans).
 */
export class SettingsSelectorComponent extends Container {
	private readonly settingsList: SettingsList;

	constructor(config: SettingsConfig, callbacks: SettingsCallbacks) {
		super();
		const items: SettingItem[] = [];
		const apply = new Map<string, (value: string) => void>();
		for (const row of SETTING_ROWS) {
			const current = config[row.key];
			const callback = callbacks[row.callback] as ((value: unknown) => void) | undefined;
			if (current === undefined || !callback) continue;
			const values = row.values ? [...row.values] : ["true", "false"];
			items.push({ id: row.key, label: row.label, currentValue: String(current), values });
			apply.set(row.key, (value) => callback(row.values ? value : value === "true"));
		}
		if (config.currentTheme !== undefined && callbacks.onThemeChange) {
			const onThemeChange = callbacks.onThemeChange;
			items.push({
				id: "theme",
				label: "Theme",
				currentValue: config.currentTheme,
				values: config.availableThemes ?? [config.currentTheme],
			});
			apply.set("theme", onThemeChange);
		}
		this.settingsList = new SettingsList(
			items,
			10,
			settingsListTheme(activeTheme()),
			(id, value) => apply.get(id)?.(value),
			callbacks.onCancel,
		);
		this.addChild(this.settingsList);
	}

	getSettingsList(): SettingsList {
		return this.settingsList;
	}
}
