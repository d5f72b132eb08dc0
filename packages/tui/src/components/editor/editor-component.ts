import type { AutocompleteProvider } from "../../autocomplete/autocomplete.js";
import type { Component } from "../../tui/component.js";
import type { SelectListTheme } from "../select-list.js";

/** Colours of `Editor`: its border and the completion list. */
export interface EditorTheme {
	borderColor: (text: string) => string;
	selectList: SelectListTheme;
}

/** Layout options of `Editor`: horizontal padding and how many completions show at once. */
export interface EditorOptions {
	paddingX?: number;
	autocompleteMaxVisible?: number;
}

/** What applications (and extensions) program against when they swap in their own editor. */
export interface EditorComponent extends Component {
	getText(): string;
	setText(text: string): void;
	handleInput(data: string): void;
	onSubmit?: (text: string) => void;
	onChange?: (text: string) => void;
	addToHistory?(text: string): void;
	insertTextAtCursor?(text: string): void;
	getExpandedText?(): string;
	setAutocompleteProvider?(provider: AutocompleteProvider | undefined): void;
	borderColor?: (text: string) => string;
	setPaddingX?(paddingX: number): void;
	setAutocompleteMaxVisible?(maxVisible: number): void;
}
