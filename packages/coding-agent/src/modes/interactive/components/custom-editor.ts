import {
	Editor,
	type EditorComponent,
	type EditorOptions,
	type EditorTheme,
	type Focusable,
	type KeybindingsManager,
	type TUI,
} from "@tau/tui";

/**
 * The editor in the prompt slot: the built-in `CustomEditor` or whatever an extension's
 * `setEditorComponent` factory returned (application keys reach only editors that call `onAction`).
 */
export type PromptEditor = EditorComponent &
	Partial<Focusable> & {
		onAction?: (data: string) => boolean;
		isShowingAutocomplete?(): boolean;
		/** Where the cursor is, for inserting clipboard paths with the right separators. */
		getLines?(): string[];
		getCursor?(): { line: number; col: number };
	};

/**
 * The prompt editor, and the class extensions extend to replace it (`ctx.ui.setEditorComponent`).
 * Application keys get the first look in `handleInput`; unclaimed keys edit the text. A subclass
 * that handles some keys itself and passes the rest to `super.handleInput` keeps the app's keys.
 */
export class CustomEditor extends Editor {
	/** Set by the interactive mode: runs the application action bound to `data`; true when one ran. */
	onAction?: (data: string) => boolean;

	constructor(
		tui: Pick<TUI, "requestRender" | "terminal">,
		theme: EditorTheme,
		/** The application's keybindings, for subclasses matching their own keys (`matches(data, id)`). */
		protected readonly keybindings: KeybindingsManager,
		options: EditorOptions = {},
	) {
		super(tui, theme, options);
	}

	override handleInput(data: string): void {
		if (this.onAction?.(data)) return;
		super.handleInput(data);
	}
}
