import {
	type Component,
	type Container,
	isFocusable,
	type KeybindingsManager,
	type SelectItem,
	type TUI,
} from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";
import type { AskOptions, PickOptions } from "../commands/command-host.js";
import { SelectDialog } from "./select-dialog.js";
import { TextPrompt } from "./text-prompt.js";

/**
 * The region that holds the editor; pickers, prompts and extension components take its place
 * (one at a time) and give it back when they close.
 */
export class EditorSlot {
	private closeCurrent: (() => void) | undefined;

	constructor(
		private readonly tui: TUI,
		private readonly slot: Container,
		private editor: Component,
		private readonly theme: () => Theme,
		private readonly keys: KeybindingsManager,
	) {
		slot.addChild(editor);
	}

	/** Puts another editor in the slot (`setEditorComponent`); a dialog on show keeps its place until it closes. */
	replaceEditor(editor: Component): void {
		this.editor = editor;
		if (this.closeCurrent) return;
		this.slot.clear();
		this.slot.addChild(editor);
		this.tui.setFocus(editor);
		this.tui.requestRender();
	}

	/** Shows `component` instead of the editor until the returned function is called. */
	show(component: Component): () => void {
		this.closeCurrent?.();
		this.slot.clear();
		this.slot.addChild(component);
		this.tui.setFocus(isFocusable(component) || component.handleInput ? component : this.editor);
		this.tui.requestRender();
		const close = () => {
			if (this.closeCurrent !== close) return;
			this.closeCurrent = undefined;
			this.slot.clear();
			this.slot.addChild(this.editor);
			this.tui.setFocus(this.editor);
			this.tui.requestRender();
		};
		this.closeCurrent = close;
		return close;
	}

	pick(title: string, items: SelectItem[], options: PickOptions = {}): Promise<SelectItem | undefined> {
		return new Promise((resolve) => {
			let close = () => {};
			const finish = (item: SelectItem | undefined) => {
				close();
				resolve(item);
			};
			close = this.show(new SelectDialog(this.theme(), this.keys, { title, items, ...options }, finish));
			options.signal?.addEventListener("abort", () => finish(undefined), { once: true });
		});
	}

	ask(title: string, options: AskOptions = {}): Promise<string | undefined> {
		const { signal, ...fields } = options;
		return new Promise((resolve) => {
			let close = () => {};
			const finish = (value: string | undefined) => {
				close();
				resolve(value);
			};
			close = this.show(new TextPrompt(this.theme(), this.keys, title, fields, finish));
			signal?.addEventListener("abort", () => finish(undefined), { once: true });
		});
	}
}
