import { envName } from "../app-identity.js";
import { isPlainObject } from "../fs/json-text.js";
import { SETTINGS_DEFAULTS as D, FULLSCREEN_EXIT_OUTPUTS, FULLSCREEN_SCROLLBARS, MERMAID_MODES } from "./defaults.js";
import { SettingsLayers } from "./layers.js";
import { booleanOr, clamp, finiteNumberOr, oneOf } from "./normalize.js";
import type {
	FullscreenExitOutput,
	FullscreenScrollbar,
	MermaidRenderingMode,
	Settings,
	TerminalCapabilityOverrides,
	TuiMode,
} from "./types.js";

/**
 * The terminal and display settings of `SettingsManager` (its base class, so each file holds one
 * group of accessors over the same layers).
 */
export class DisplaySettings extends SettingsLayers {
	/** The raw theme value, possibly a `light/dark` pair. */
	/** The configured theme, or undefined when unset (the interactive mode then uses `system`). */
	getThemeSetting(): string | undefined {
		const theme = this.value("theme");
		return typeof theme === "string" ? theme : undefined;
	}
	/** A single theme name, or undefined when unset or a light/dark pair. */
	getTheme(): string | undefined {
		const theme = this.getThemeSetting();
		return theme?.includes("/") ? undefined : theme;
	}
	setTheme(theme: string): void {
		this.setGlobalField("theme", theme);
	}
	getQuietStartup(): boolean | "header" {
		const quiet = this.value("quietStartup");
		return quiet === true || quiet === "header" ? quiet : false;
	}
	setQuietStartup(quiet: boolean | "header"): void {
		this.setGlobalField("quietStartup", quiet);
	}
	getTuiMode(): TuiMode {
		return this.value("tuiMode") === "regular" ? "regular" : "fullscreen";
	}
	setTuiMode(mode: TuiMode): void {
		this.setGlobalField("tuiMode", mode);
	}
	getFullscreenExitOutput(): FullscreenExitOutput {
		return oneOf(this.value("fullscreenExitOutput"), FULLSCREEN_EXIT_OUTPUTS, D.fullscreenExitOutput);
	}
	setFullscreenExitOutput(output: FullscreenExitOutput): void {
		this.setGlobalField("fullscreenExitOutput", output);
	}
	getFullscreenScrollbar(): FullscreenScrollbar {
		return oneOf(this.value("fullscreenScrollbar"), FULLSCREEN_SCROLLBARS, D.fullscreenScrollbar);
	}
	setFullscreenScrollbar(scrollbar: FullscreenScrollbar): void {
		this.setGlobalField("fullscreenScrollbar", scrollbar);
	}
	getFullscreenCopyOnSelect(): boolean {
		return booleanOr(this.value("fullscreenCopyOnSelect"), D.fullscreenCopyOnSelect);
	}
	setFullscreenCopyOnSelect(copy: boolean): void {
		this.setGlobalField("fullscreenCopyOnSelect", copy);
	}
	/** `"auto"`, or a line count floored and clamped to 1..100. */
	getFullscreenWheelScrollLines(): "auto" | number {
		const lines = this.value("fullscreenWheelScrollLines");
		return typeof lines === "number" && Number.isFinite(lines) ? clamp(Math.floor(lines), 1, 100) : "auto";
	}
	setFullscreenWheelScrollLines(lines: "auto" | number): void {
		this.setGlobalField("fullscreenWheelScrollLines", lines);
	}
	getEditorPaddingX(): number {
		return clamp(Math.floor(finiteNumberOr(this.value("editorPaddingX"), D.editorPaddingX)), 0, 3);
	}
	setEditorPaddingX(padding: number): void {
		this.setGlobalField("editorPaddingX", clamp(Math.floor(padding), 0, 3));
	}
	getOutputPad(): 0 | 1 {
		return this.value("outputPad") === 0 ? 0 : 1;
	}
	setOutputPad(pad: 0 | 1): void {
		this.setGlobalField("outputPad", pad);
	}
	getAutocompleteMaxVisible(): number {
		return clamp(Math.floor(finiteNumberOr(this.value("autocompleteMaxVisible"), D.autocompleteMaxVisible)), 3, 20);
	}
	setAutocompleteMaxVisible(count: number): void {
		this.setGlobalField("autocompleteMaxVisible", clamp(Math.floor(count), 3, 20));
	}
	getShowHardwareCursor(): boolean {
		const show = this.value("showHardwareCursor");
		return typeof show === "boolean" ? show : process.env[envName("HARDWARE_CURSOR")] === "1";
	}
	setShowHardwareCursor(show: boolean): void {
		this.setGlobalField("showHardwareCursor", show);
	}
	getShowImages(): boolean {
		return booleanOr(this.object("terminal").showImages, D.terminal.showImages);
	}
	setShowImages(show: boolean): void {
		this.setGlobalNested("terminal", "showImages", show);
	}
	getImageWidthCells(): number {
		return Math.max(
			1,
			Math.floor(finiteNumberOr(this.object("terminal").imageWidthCells, D.terminal.imageWidthCells)),
		);
	}
	setImageWidthCells(cells: number): void {
		this.setGlobalNested("terminal", "imageWidthCells", Math.max(1, Math.floor(cells)));
	}
	/** The setting wins; when unset, `TAU_CLEAR_ON_SHRINK=1` enables it. */
	getClearOnShrink(): boolean {
		const clear = this.object("terminal").clearOnShrink;
		return typeof clear === "boolean" ? clear : process.env[envName("CLEAR_ON_SHRINK")] === "1";
	}
	setClearOnShrink(clear: boolean): void {
		this.setGlobalNested("terminal", "clearOnShrink", clear);
	}
	getShowTerminalProgress(): boolean {
		return booleanOr(this.object("terminal").showTerminalProgress, D.terminal.showTerminalProgress);
	}
	setShowTerminalProgress(show: boolean): void {
		this.setGlobalNested("terminal", "showTerminalProgress", show);
	}
	/** Only explicit values: `"auto"` and invalid values leave detection in charge. */
	getTerminalCapabilityOverrides(): TerminalCapabilityOverrides {
		const terminal = this.object("terminal");
		const overrides: TerminalCapabilityOverrides = {};
		if (terminal.images === false) overrides.images = null;
		if (terminal.images === "kitty" || terminal.images === "iterm2") overrides.images = terminal.images;
		if (typeof terminal.trueColor === "boolean") overrides.trueColor = terminal.trueColor;
		if (typeof terminal.hyperlinks === "boolean") overrides.hyperlinks = terminal.hyperlinks;
		return overrides;
	}
	getImageAutoResize(): boolean {
		return booleanOr(this.object("images").autoResize, D.images.autoResize);
	}
	setImageAutoResize(resize: boolean): void {
		this.setGlobalNested("images", "autoResize", resize);
	}
	getBlockImages(): boolean {
		return booleanOr(this.object("images").blockImages, D.images.blockImages);
	}
	setBlockImages(block: boolean): void {
		this.setGlobalNested("images", "blockImages", block);
	}
	getCodeBlockIndent(): string {
		const indent = this.object("markdown").codeBlockIndent;
		return typeof indent === "string" ? indent : D.markdown.codeBlockIndent;
	}
	getMermaidRenderingMode(): MermaidRenderingMode {
		return oneOf(this.object("markdown").mermaid, MERMAID_MODES, D.markdown.mermaid);
	}
	setMermaidRenderingMode(mode: MermaidRenderingMode): void {
		this.setGlobalNested("markdown", "mermaid", mode);
	}

	/** A nested settings object, or an empty one when unset or not an object. */
	protected object(field: keyof Settings): Record<string, unknown> {
		const value = this.value(field);
		return isPlainObject(value) ? value : {};
	}
}
