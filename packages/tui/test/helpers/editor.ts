import { Editor, type EditorTheme } from "@tau/tui";
import { plain, plainSelectListTheme } from "./themes.js";
import { VirtualTerminal } from "./virtual-terminal.js";

export const editorTheme: EditorTheme = {
	borderColor: plain,
	selectList: plainSelectListTheme,
};

/** An editor with a stand-in TUI (24 rows unless given). */
export function makeEditor(rows = 24) {
	const renders = { count: 0 };
	const tui = {
		requestRender: () => {
			renders.count++;
		},
		terminal: new VirtualTerminal(80, rows),
	};
	const editor = new Editor(tui, editorTheme);
	const submitted: string[] = [];
	editor.onSubmit = (t) => submitted.push(t);
	const type = (text: string) => {
		for (const ch of text) editor.handleInput(ch);
	};
	return { editor, submitted, type, renders };
}
