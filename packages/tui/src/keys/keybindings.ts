import type { KeyId } from "./key-id.js";
import { matchesKey } from "./match-key.js";

/** An action's default keys and a description for help screens. */
export interface KeybindingDefinition {
	defaultKeys: KeyId | KeyId[];
	description?: string;
}

/** Action ids mapped to their default keys and descriptions. */
export type KeybindingDefinitions = Record<string, KeybindingDefinition>;
/** The user's keys per action id; they replace the defaults, and an action listed with no keys is unbound. */
export type UserKeybindings = Record<string, KeyId | KeyId[] | undefined>;

/** Registry of action ids; applications extend it by declaration merging. */
// biome-ignore lint/suspicious/noEmptyInterface: declaration-merging registry
export interface Keybindings {}

function toList(keys: KeyId | KeyId[] | undefined): KeyId[] {
	if (keys === undefined) return [];
	return [...new Set(Array.isArray(keys) ? keys : [keys])];
}

/** Resolves named actions to keys: user overrides win over defaults per action. */
export class KeybindingsManager {
	private resolved = new Map<string, KeyId[]>();
	private userBindings: UserKeybindings;

	constructor(
		private readonly definitions: KeybindingDefinitions,
		userBindings: UserKeybindings = {},
	) {
		this.userBindings = { ...userBindings };
		this.resolve();
	}

	private resolve(): void {
		this.resolved.clear();
		for (const [action, def] of Object.entries(this.definitions)) {
			const keys = Object.hasOwn(this.userBindings, action)
				? toList(this.userBindings[action])
				: toList(def.defaultKeys);
			this.resolved.set(action, keys);
		}
	}

	matches(data: string, action: string): boolean {
		const keys = this.resolved.get(action);
		if (!keys) return false;
		for (const key of keys) if (matchesKey(data, key)) return true;
		return false;
	}

	getKeys(action: string): KeyId[] {
		return [...(this.resolved.get(action) ?? [])];
	}

	getDefinition(action: string): KeybindingDefinition | undefined {
		return this.definitions[action];
	}

	/** Keys claimed by more than one user-configured action. */
	getConflicts(): { key: KeyId; keybindings: string[] }[] {
		const owners = new Map<string, { key: KeyId; actions: string[] }>();
		for (const [action, keys] of Object.entries(this.userBindings)) {
			if (!this.definitions[action]) continue;
			for (const key of toList(keys)) {
				const norm = key.toLowerCase();
				const entry = owners.get(norm) ?? { key, actions: [] };
				if (!entry.actions.includes(action)) entry.actions.push(action);
				owners.set(norm, entry);
			}
		}
		return [...owners.values()]
			.filter((e) => e.actions.length > 1)
			.map((e) => ({ key: e.key, keybindings: e.actions }));
	}

	setUserBindings(bindings: UserKeybindings): void {
		this.userBindings = { ...bindings };
		this.resolve();
	}

	getUserBindings(): UserKeybindings {
		return { ...this.userBindings };
	}

	getResolvedBindings(): Record<string, KeyId | KeyId[]> {
		const out: Record<string, KeyId | KeyId[]> = {};
		for (const [action, keys] of this.resolved) out[action] = keys.length === 1 ? keys[0]! : keys;
		return out;
	}
}

const def = (defaultKeys: KeyId | KeyId[], description: string): KeybindingDefinition => ({ defaultKeys, description });

/** Library actions used by the built-in components (docs/design/interactive.md#keybindings). */
export const TUI_KEYBINDINGS: KeybindingDefinitions = {
	"tui.editor.cursorUp": def("up", "Move cursor up"),
	"tui.editor.cursorDown": def("down", "Move cursor down"),
	"tui.editor.historyPrevious": def([], "Previous history entry"),
	"tui.editor.historyNext": def([], "Next history entry"),
	"tui.editor.cursorLeft": def(["left", "ctrl+b"], "Move cursor left"),
	"tui.editor.cursorRight": def(["right", "ctrl+f"], "Move cursor right"),
	"tui.editor.cursorWordLeft": def(["alt+left", "ctrl+left", "alt+b"], "Move cursor one word left"),
	"tui.editor.cursorWordRight": def(["alt+right", "ctrl+right", "alt+f"], "Move cursor one word right"),
	"tui.editor.cursorLineStart": def(["home", "ctrl+a"], "Move to line start"),
	"tui.editor.cursorLineEnd": def(["end", "ctrl+e"], "Move to line end"),
	"tui.editor.jumpForward": def("ctrl+]", "Jump forward to character"),
	"tui.editor.jumpBackward": def("ctrl+alt+]", "Jump backward to character"),
	"tui.editor.pageUp": def(["pageUp", "ctrl+pageUp"], "Page up"),
	"tui.editor.pageDown": def(["pageDown", "ctrl+pageDown"], "Page down"),
	"tui.editor.deleteCharBackward": def("backspace", "Delete character backward"),
	"tui.editor.deleteCharForward": def(["delete", "ctrl+d"], "Delete character forward"),
	"tui.editor.deleteWordBackward": def(["ctrl+w", "alt+backspace"], "Delete word backward"),
	"tui.editor.deleteWordForward": def(["alt+d", "alt+delete"], "Delete word forward"),
	"tui.editor.deleteToLineStart": def("ctrl+u", "Delete to line start"),
	"tui.editor.deleteToLineEnd": def("ctrl+k", "Delete to line end"),
	"tui.editor.yank": def("ctrl+y", "Yank"),
	"tui.editor.yankPop": def("alt+y", "Yank pop"),
	"tui.editor.undo": def("ctrl+-", "Undo"),
	"tui.input.newLine": def(["shift+enter", "ctrl+j"], "Insert newline"),
	"tui.input.submit": def("enter", "Submit"),
	"tui.input.tab": def("tab", "Tab / complete"),
	"tui.input.copy": def("ctrl+c", "Copy"),
	"tui.select.up": def("up", "Selection up"),
	"tui.select.down": def("down", "Selection down"),
	"tui.select.pageUp": def("pageUp", "Selection page up"),
	"tui.select.pageDown": def("pageDown", "Selection page down"),
	"tui.select.confirm": def("enter", "Confirm selection"),
	"tui.select.cancel": def(["escape", "ctrl+c"], "Cancel selection"),
	"tui.altScreen.pageUp": def("pageUp", "Scroll page up"),
	"tui.altScreen.pageDown": def("pageDown", "Scroll page down"),
	"tui.altScreen.halfPageUp": def([], "Scroll half page up"),
	"tui.altScreen.halfPageDown": def([], "Scroll half page down"),
	"tui.altScreen.lineUp": def([], "Scroll one line up"),
	"tui.altScreen.lineDown": def([], "Scroll one line down"),
	"tui.altScreen.previousPrompt": def(["ctrl+shift+up", "ctrl+up"], "Previous prompt"),
	"tui.altScreen.nextPrompt": def(["ctrl+shift+down", "ctrl+down"], "Next prompt"),
	"tui.altScreen.search": def("ctrl+shift+f", "Search"),
	"tui.altScreen.searchNext": def(["enter", "ctrl+g"], "Next match"),
	"tui.altScreen.searchPrevious": def(["shift+enter", "ctrl+shift+g"], "Previous match"),
	"tui.altScreen.searchClose": def("escape", "Close search"),
	"tui.altScreen.top": def("ctrl+home", "Scroll to top"),
	"tui.altScreen.bottom": def("ctrl+end", "Scroll to bottom"),
};

let current: KeybindingsManager | undefined;

/** Installs the process-wide manager the built-in components consult. */
export function setKeybindings(manager: KeybindingsManager): void {
	current = manager;
}

/** The process-wide keybindings manager, created with the TUI's default bindings on first use. */
export function getKeybindings(): KeybindingsManager {
	current ??= new KeybindingsManager(TUI_KEYBINDINGS);
	return current;
}

/** New selection index for a select page key, or undefined when `data` is not one. */
export function getSelectPageIndex(
	kb: KeybindingsManager,
	data: string,
	selected: number,
	count: number,
	pageSize: number,
): number | undefined {
	const clamp = (n: number) => (count === 0 ? 0 : Math.max(0, Math.min(count - 1, n)));
	if (kb.matches(data, "tui.select.pageUp")) return clamp(selected - pageSize);
	if (kb.matches(data, "tui.select.pageDown")) return clamp(selected + pageSize);
	return undefined;
}
