/** The contracts every component fulfils: width in, lines out. */

export type TuiMouseEventType = "press" | "release" | "move" | "drag" | "click" | "wheel";
/** The mouse button of an event; `none` for moves and wheel events. */
export type TuiMouseButton = "left" | "middle" | "right" | "none";

/** A mouse event delivered to a component: kind, button, position relative to the component and modifiers. */
export interface TuiMouseEvent {
	type: TuiMouseEventType;
	button: TuiMouseButton;
	/** Local, zero-based. */
	x: number;
	y: number;
	/** Absolute, zero-based. */
	screenX: number;
	screenY: number;
	/** The receiving component's bounds. */
	width: number;
	height: number;
	shift: boolean;
	alt: boolean;
	ctrl: boolean;
	/** Logical lines, negative = up. */
	wheelDelta?: number;
	clickCount?: number;
}

/** A component's answer to a mouse event: handled, capture further events, take focus, redraw. */
export interface TuiMouseEventResult {
	handled?: boolean;
	capture?: boolean;
	focus?: boolean;
	render?: boolean;
}

/** Anything the TUI can draw: renders itself to lines of a given width and may handle keys and mouse events. */
export interface Component {
	/** One string per terminal row; each line's visible width must be `<= width`. */
	render(width: number): readonly string[];
	handleInput?(data: string): void;
	handleMouse?(event: TuiMouseEvent): TuiMouseEventResult | undefined;
	/** Kitty key-release events are filtered out unless this is true. */
	wantsKeyRelease?: boolean;
	/** While focused, full-screen viewport keys go to the component. */
	capturesViewportInput?: boolean;
	/** Clears caches only; the next render recomputes. */
	invalidate(): void;
}

/** Set by the TUI on focus changes. */
export interface Focusable {
	focused: boolean;
}

/** Whether a component can take keyboard focus (it has a `focused` flag the TUI sets). */
export function isFocusable(component: unknown): component is Component & Focusable {
	return typeof component === "object" && component !== null && "focused" in component;
}

/** Zero-width marker placed right before the cursor cell; the TUI moves the hardware cursor there. */
export const CURSOR_MARKER = "\x1b_pi:c\x07";
/** Zero-width marker before a cell drawn as a software cursor; `renderFakeCursor` wraps a cell in it. */
export const FAKE_CURSOR_START = "\x1b_pi:fc\x07";
/** Ends the cell a component marked with `FAKE_CURSOR_START`. */
export const FAKE_CURSOR_END = "\x1b_pi:/fc\x07";

/** Wraps the cell under a software cursor; drawn in reverse video unless the hardware cursor is there. */
export function renderFakeCursor(cell: string): string {
	return FAKE_CURSOR_START + cell + FAKE_CURSOR_END;
}
