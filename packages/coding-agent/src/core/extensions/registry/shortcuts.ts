import type { Extension, RegisteredShortcut } from "../runtime/extension.js";

/** Built-in actions an extension shortcut may never take over. */
export const RESERVED_KEYBINDING_ACTIONS: readonly string[] = [
	"app.interrupt",
	"app.clear",
	"app.exit",
	"app.suspend",
	"app.thinking.cycle",
	"app.model.cycleForward",
	"app.model.cycleBackward",
	"app.model.select",
	"app.tools.expand",
	"app.thinking.toggle",
	"app.editor.external",
	"app.message.copy",
	"app.message.followUp",
	"tui.input.submit",
	"tui.select.confirm",
	"tui.select.cancel",
	"tui.input.copy",
	"tui.editor.deleteToLineEnd",
];

export interface ResolvedShortcuts {
	/** By lower-cased key. */
	shortcuts: Map<string, RegisteredShortcut>;
	warnings: string[];
}

/**
 * Extension shortcuts for the interactive mode: across extensions the last registration of a key
 * wins (with a warning); a key bound to a reserved built-in action is skipped, a key bound to another
 * built-in action goes to the extension (both with a warning). Keys compare case-insensitively.
 */
export function resolveShortcuts(
	extensions: readonly Extension[],
	builtinBindings: ReadonlyMap<string, string>,
): ResolvedShortcuts {
	const builtins = new Map([...builtinBindings].map(([key, action]) => [key.toLowerCase(), action]));
	const shortcuts = new Map<string, RegisteredShortcut>();
	const warnings: string[] = [];
	for (const extension of extensions) {
		for (const shortcut of extension.shortcuts.values()) {
			const key = shortcut.key.toLowerCase();
			const action = builtins.get(key);
			if (action && RESERVED_KEYBINDING_ACTIONS.includes(action)) {
				warnings.push(`Shortcut "${shortcut.key}" of ${shortcut.extensionPath} is reserved for ${action}; skipped`);
				continue;
			}
			if (action) warnings.push(`Shortcut "${shortcut.key}" of ${shortcut.extensionPath} overrides ${action}`);
			const previous = shortcuts.get(key);
			if (previous && previous.extensionPath !== shortcut.extensionPath) {
				warnings.push(
					`Shortcut "${shortcut.key}" of ${shortcut.extensionPath} replaces the one of ${previous.extensionPath}`,
				);
			}
			shortcuts.set(key, shortcut);
		}
	}
	return { shortcuts, warnings };
}
