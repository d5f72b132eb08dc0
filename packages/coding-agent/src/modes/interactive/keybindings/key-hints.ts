import { getKeybindings, KeybindingsManager } from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";
import { activeTheme } from "../theme/active-theme.js";
import { appKeybindingDefinitions, boundKey } from "./app-keybindings.js";

let appDefaults: KeybindingsManager | undefined;

/**
 * The process-wide manager (the interactive mode installs the user's bindings there), or the
 * application defaults for an id it does not define, as before the interactive mode has started.
 */
function managerFor(id: string): KeybindingsManager {
	const current = getKeybindings();
	if (current.getDefinition(id)) return current;
	appDefaults ??= new KeybindingsManager(appKeybindingDefinitions());
	return appDefaults;
}

/** `Ctrl+O expand`-style hint: the key in the accent colour, the description muted; empty without a key. */
export function styleKeyHint(theme: Theme, key: string, description: string): string {
	return key ? `${theme.fg("accent", key)} ${theme.fg("muted", description)}` : "";
}

/** The current key of a keybinding id (`app.tools.expand` → `Ctrl+O`); empty when it is unbound. */
export function keyText(id: string): string {
	return boundKey(managerFor(id), id);
}

/** The current key of a keybinding id with a description, styled with the active theme. */
export function keyHint(id: string, description: string): string {
	return styleKeyHint(activeTheme(), keyText(id), description);
}

/** A hint for a literal key (`Enter`, `↑↓`) rather than a keybinding id. */
export function rawKeyHint(key: string, description: string): string {
	return styleKeyHint(activeTheme(), key, description);
}
