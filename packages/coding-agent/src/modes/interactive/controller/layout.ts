import {
	type Component,
	Container,
	type KeybindingsManager,
	ScrollView,
	type Terminal,
	type TUI,
	TuiAltScreen,
	TuiMainScreen,
	type TuiMode,
	VStack,
} from "@tau/tui";
import type { SettingsManager } from "../../../config/index.js";
import type { Theme } from "../../../core/resources/index.js";
import type { ChatTranscript } from "../components/chat-transcript.js";
import { boundKey } from "../keybindings/app-keybindings.js";

/** The regions of the screen, top to bottom (docs/design/interactive.md#layout). */
export interface LayoutRegions {
	header: Container;
	chat: ChatTranscript;
	pending: Container;
	status: Component;
	widgetsAbove: Container;
	editorSlot: Container;
	widgetsBelow: Container;
	footer: Container;
}

export function createRenderer(
	mode: TuiMode,
	terminal: Terminal,
	settings: SettingsManager,
	theme: Theme,
	keys: KeybindingsManager,
	/** Fullscreen mouse actions: a clicked link, and the Windows right-click paste. */
	mouse: { openUrl(url: string): void; pasteText(): void },
): TUI {
	const hardwareCursor = settings.getShowHardwareCursor();
	if (mode === "regular") return new TuiMainScreen(terminal, hardwareCursor);
	const bottom = boundKey(keys, "tui.altScreen.bottom");
	return new TuiAltScreen(terminal, hardwareCursor, undefined, {
		wheelScrollLines: settings.getFullscreenWheelScrollLines(),
		copyOnSelect: settings.getFullscreenCopyOnSelect(),
		openUrl: (url) => mouse.openUrl(url),
		onRightClickPaste: () => mouse.pasteText(),
		scrollToEndIndicator: () =>
			theme.style(` ↓ Jump to latest message${bottom ? ` · ${bottom}` : ""} `, { inverse: true }),
	});
}

/**
 * Mounts the regions: fullscreen puts header and chat in a scrolling transcript above a dock;
 * regular appends everything to the main screen, where terminal scrollback holds history.
 */
export function mountLayout(tui: TUI, regions: LayoutRegions, settings: SettingsManager, theme: Theme): void {
	const ordered = [
		regions.pending,
		regions.status,
		regions.widgetsAbove,
		regions.editorSlot,
		regions.widgetsBelow,
		regions.footer,
	];
	if (!(tui instanceof TuiAltScreen)) {
		tui.addChild(regions.header);
		tui.addChild(regions.chat);
		for (const region of ordered) tui.addChild(region);
		return;
	}
	const transcript = new Container();
	transcript.addChild(regions.header);
	transcript.addChild(regions.chat);
	const view = new ScrollView(transcript, {
		follow: "end",
		primary: true,
		overscroll: "chain",
		scrollbar: settings.getFullscreenScrollbar(),
		scrollbarTrackStyle: (t) => theme.fg("scrollbarTrack", t),
		scrollbarThumbStyle: (t) => theme.fg("scrollbarThumb", t),
	});
	const dock = new VStack(
		ordered.map((component) => ({
			component,
			shrink: 1,
			minSize: component === regions.editorSlot ? 3 : 0,
		})),
	);
	tui.setLayoutRoot(
		new VStack([
			{ component: view, basis: 0, grow: 1, shrink: 1, minSize: 1 },
			{ component: dock, basis: "auto", shrink: 1, minSize: 1 },
		]),
	);
}

/**
 * A `TUI` that forwards to whichever renderer is current, so components keep working when the
 * renderer is replaced (`tuiMode` switched live from /settings).
 */
export function forwardingTui(current: () => TUI): TUI {
	return new Proxy({} as TUI, {
		get(_target, key) {
			const target = current();
			const value = Reflect.get(target, key, target) as unknown;
			return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
		set(_target, key, value) {
			return Reflect.set(current(), key, value);
		},
		has(_target, key) {
			return Reflect.has(current(), key);
		},
	});
}

/** The transcript lines a fullscreen exit leaves in the main screen (`fullscreenExitOutput`). */
export function transcriptLines(regions: LayoutRegions, width: number): string[] {
	regions.chat.revealAll();
	return [...regions.header.render(width), ...regions.chat.render(width)];
}
