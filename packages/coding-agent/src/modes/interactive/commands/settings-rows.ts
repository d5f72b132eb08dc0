import type { SettingsManager } from "../../../config/index.js";
import type { CommandHost } from "./command-host.js";

/** Live effects the panel cannot apply through settings alone. */
export interface SettingsEffects {
	setHideThinking(hide: boolean): void;
	setTuiMode(mode: "fullscreen" | "regular"): void;
	/** The renderer in use (may differ from the setting after `--tui-mode`). */
	tuiMode(): "fullscreen" | "regular";
	/** Recreates the renderer so fullscreen and cursor options read at construction take effect. */
	reconfigureRenderer(): void;
	/** Applies a `theme` setting value (a name or a `light/dark` pair) to the running UI. */
	applyTheme(setting: string): void;
	/** Re-reads editor padding and autocomplete size into the editor. */
	applyEditorOptions(): void;
	setClearOnShrink(on: boolean): void;
	/** Rebuilds the slash-command completions (skill commands on or off). */
	refreshAutocomplete(): void;
}

export interface SettingRow {
	id: string;
	label: string;
	values: readonly string[];
	current(): string;
	apply(value: string): void;
}

const flag = (value: boolean) => (value ? "on" : "off");

/** An on/off row; `live` applies the new value to running components after it is saved. */
function toggle(
	id: string,
	label: string,
	get: () => boolean,
	set: (on: boolean) => void,
	live?: (on: boolean) => void,
): SettingRow {
	return {
		id,
		label,
		values: ["on", "off"],
		current: () => flag(get()),
		apply: (value) => {
			set(value === "on");
			live?.(value === "on");
		},
	};
}

function choice<T extends string>(
	id: string,
	label: string,
	values: readonly T[],
	get: () => string,
	set: (value: T) => void,
	live?: (value: T) => void,
): SettingRow {
	return {
		id,
		label,
		values,
		current: get,
		apply: (value) => {
			set(value as T);
			live?.(value as T);
		},
	};
}

/** A numeric row offering a few common values; `label` of the current value is its number. */
function numeric(
	id: string,
	label: string,
	values: readonly number[],
	get: () => number,
	set: (value: number) => void,
	live?: () => void,
): SettingRow {
	return choice(
		id,
		label,
		values.map(String),
		() => String(get()),
		(value) => set(Number(value)),
		live,
	);
}

/** `theme` values: every loaded theme name, then each light/dark pair of them. */
function themeValues(host: CommandHost): string[] {
	const themes = host.session.resourceLoader.getThemes().themes;
	const names = ["system", ...themes.map((theme) => theme.name).filter((name) => name !== "system")];
	const light = themes.filter((theme) => theme.appearance === "light").map((theme) => theme.name);
	const dark = themes.filter((theme) => theme.appearance === "dark").map((theme) => theme.name);
	return [...names, ...light.flatMap((l) => dark.map((d) => `${l}/${d}`))];
}

/** The thinking level of the current model, remembered for it in `modelThinkingLevels`. */
function modelThinkingRow(host: CommandHost): SettingRow[] {
	const model = host.session.model;
	if (!model || !host.session.supportsThinking()) return [];
	const key = `${model.provider}/${model.id}`;
	return [
		choice(
			"modelThinkingLevel",
			`Thinking level for ${key}`,
			host.session.getAvailableThinkingLevels(),
			() => host.session.thinkingLevel,
			(level) => {
				host.session.setThinkingLevel(level);
				host.session.settingsManager.setModelThinkingLevel(model.provider, model.id, level);
			},
		),
	];
}

/**
 * Every row of `/settings` (docs/design/interactive.md#slash-commands), in Pi's order. Each change is
 * saved to the global settings file; `live` hooks apply what running components read only once.
 */
export function settingRows(host: CommandHost, effects: SettingsEffects): SettingRow[] {
	const s: SettingsManager = host.session.settingsManager;
	const session = host.session;
	return [
		toggle(
			"autoCompaction",
			"Auto-compaction",
			() => session.autoCompactionEnabled,
			(on) => session.setAutoCompactionEnabled(on),
		),
		choice(
			"steeringMode",
			"Steering mode",
			["one-at-a-time", "all"],
			() => session.steeringMode,
			(mode) => session.setSteeringMode(mode),
		),
		choice(
			"followUpMode",
			"Follow-up mode",
			["one-at-a-time", "all"],
			() => session.followUpMode,
			(mode) => session.setFollowUpMode(mode),
		),
		choice(
			"transport",
			"Transport",
			["auto", "sse", "websocket", "websocket-cached"],
			() => s.getTransport(),
			(transport) => s.setTransport(transport),
		),
		choice(
			"sessionShareDestination",
			"Share destination",
			["auto", "gist", "radius"],
			() => s.getSessionShareDestination(),
			(destination) => s.setSessionShareDestination(destination),
		),
		choice(
			"httpIdleTimeoutMs",
			"HTTP idle timeout (ms)",
			["60000", "120000", "300000", "600000", "disabled"],
			() => (s.getHttpIdleTimeoutMs() === 0 ? "disabled" : String(s.getHttpIdleTimeoutMs())),
			(value) => s.setHttpIdleTimeoutMs(value === "disabled" ? value : Number(value)),
		),
		choice(
			"cacheWarming",
			"Cache warming",
			["off", "streaming", "idle"],
			() => s.getCacheWarmingMode(),
			(mode) => s.setCacheWarmingMode(mode),
		),
		toggle(
			"hideThinkingBlock",
			"Hide thinking",
			() => s.getHideThinkingBlock(),
			(on) => s.setHideThinkingBlock(on),
			(on) => effects.setHideThinking(on),
		),
		choice(
			"markdown.mermaid",
			"Mermaid rendering",
			["off", "final", "streaming"],
			() => s.getMermaidRenderingMode(),
			(mode) => s.setMermaidRenderingMode(mode),
			() => host.rebuildChat(),
		),
		toggle(
			"showCacheMissNotices",
			"Cache-miss notices",
			() => s.getShowCacheMissNotices(),
			(on) => s.setShowCacheMissNotices(on),
		),
		toggle(
			"collapseChangelog",
			"Collapsed changelog",
			() => s.getCollapseChangelog(),
			(on) => s.setCollapseChangelog(on),
		),
		choice(
			"quietStartup",
			"Quiet startup",
			["off", "on", "header"],
			() => {
				const quiet = s.getQuietStartup();
				return quiet === "header" ? quiet : flag(quiet);
			},
			(value) => s.setQuietStartup(value === "header" ? value : value === "on"),
		),
		toggle(
			"enableInstallTelemetry",
			"Install telemetry",
			() => s.getEnableInstallTelemetry(),
			(on) => s.setEnableInstallTelemetry(on),
		),
		choice(
			"defaultProjectTrust",
			"Default project trust",
			["ask", "always", "never"],
			() => s.getDefaultProjectTrust(),
			(policy) => s.setDefaultProjectTrust(policy),
		),
		choice(
			"doubleEscapeAction",
			"Double-Escape action",
			["tree", "fork", "none"],
			() => s.getDoubleEscapeAction(),
			(action) => s.setDoubleEscapeAction(action),
		),
		choice(
			"treeFilterMode",
			"Tree filter mode",
			["default", "no-tools", "user-only", "labeled-only", "all"],
			() => s.getTreeFilterMode(),
			(mode) => s.setTreeFilterMode(mode),
		),
		toggle(
			"warnings.anthropicExtraUsage",
			"Warn about Anthropic extra usage",
			() => s.getWarnings().anthropicExtraUsage !== false,
			(on) => s.setWarnings({ ...s.getWarnings(), anthropicExtraUsage: on }),
		),
		...modelThinkingRow(host),
		choice(
			"tuiMode",
			"TUI mode",
			["fullscreen", "regular"],
			() => effects.tuiMode(),
			(mode) => s.setTuiMode(mode),
			(mode) => effects.setTuiMode(mode),
		),
		choice(
			"fullscreenExitOutput",
			"Fullscreen exit output",
			["transcript", "resume-hint"],
			() => s.getFullscreenExitOutput(),
			(output) => s.setFullscreenExitOutput(output),
		),
		choice(
			"fullscreenScrollbar",
			"Fullscreen scrollbar",
			["auto", "always", "hidden"],
			() => s.getFullscreenScrollbar(),
			(scrollbar) => s.setFullscreenScrollbar(scrollbar),
			() => effects.reconfigureRenderer(),
		),
		toggle(
			"fullscreenCopyOnSelect",
			"Fullscreen copy on select",
			() => s.getFullscreenCopyOnSelect(),
			(on) => s.setFullscreenCopyOnSelect(on),
			() => effects.reconfigureRenderer(),
		),
		choice(
			"fullscreenWheelScrollLines",
			"Fullscreen wheel scroll lines",
			["auto", "1", "3", "5", "10"],
			() => String(s.getFullscreenWheelScrollLines()),
			(value) => s.setFullscreenWheelScrollLines(value === "auto" ? value : Number(value)),
			() => effects.reconfigureRenderer(),
		),
		choice(
			"theme",
			"Theme",
			themeValues(host),
			() => s.getThemeSetting() ?? "system",
			(theme) => s.setTheme(theme),
			(theme) => effects.applyTheme(theme),
		),
		toggle(
			"terminal.showImages",
			"Show images",
			() => s.getShowImages(),
			(on) => s.setShowImages(on),
			() => host.rebuildChat(),
		),
		numeric(
			"terminal.imageWidthCells",
			"Image width (cells)",
			[40, 60, 80, 100, 120],
			() => s.getImageWidthCells(),
			(cells) => s.setImageWidthCells(cells),
			() => host.rebuildChat(),
		),
		toggle(
			"images.autoResize",
			"Auto-resize images",
			() => s.getImageAutoResize(),
			(on) => s.setImageAutoResize(on),
		),
		toggle(
			"images.blockImages",
			"Block images",
			() => s.getBlockImages(),
			(on) => s.setBlockImages(on),
		),
		toggle(
			"enableSkillCommands",
			"Skill commands",
			() => s.getEnableSkillCommands(),
			(on) => s.setEnableSkillCommands(on),
			() => effects.refreshAutocomplete(),
		),
		toggle(
			"showHardwareCursor",
			"Hardware cursor",
			() => s.getShowHardwareCursor(),
			(on) => s.setShowHardwareCursor(on),
			() => effects.reconfigureRenderer(),
		),
		numeric(
			"editorPaddingX",
			"Editor padding",
			[0, 1, 2, 3],
			() => s.getEditorPaddingX(),
			(padding) => s.setEditorPaddingX(padding),
			() => effects.applyEditorOptions(),
		),
		numeric(
			"outputPad",
			"Output padding",
			[0, 1],
			() => s.getOutputPad(),
			(pad) => s.setOutputPad(pad === 0 ? 0 : 1),
			() => host.rebuildChat(),
		),
		numeric(
			"autocompleteMaxVisible",
			"Autocomplete size",
			[3, 5, 8, 10, 15, 20],
			() => s.getAutocompleteMaxVisible(),
			(count) => s.setAutocompleteMaxVisible(count),
			() => effects.applyEditorOptions(),
		),
		toggle(
			"terminal.clearOnShrink",
			"Clear on shrink",
			() => s.getClearOnShrink(),
			(on) => s.setClearOnShrink(on),
			(on) => effects.setClearOnShrink(on),
		),
		toggle(
			"terminal.showTerminalProgress",
			"Terminal progress",
			() => s.getShowTerminalProgress(),
			(on) => s.setShowTerminalProgress(on),
		),
	];
}
