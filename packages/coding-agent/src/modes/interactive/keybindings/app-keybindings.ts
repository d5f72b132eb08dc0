import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
	isValidKeyId,
	type KeybindingDefinition,
	type KeybindingDefinitions,
	KeybindingsManager,
	type KeyId,
	TUI_KEYBINDINGS,
	type UserKeybindings,
} from "@tau/tui";
import { parseJsonFile } from "../../../config/fs/json-file.js";
import { LEGACY_ACTION_NAMES } from "./legacy-names.js";

/** Native Windows, or Linux under WSL: terminals there cannot deliver some combinations (docs/design/interactive.md#keybindings). */
export function usesWindowsBindings(platform: NodeJS.Platform = process.platform, env = process.env): boolean {
	return platform === "win32" || (platform === "linux" && Boolean(env.WSL_DISTRO_NAME || env.WSL_INTEROP));
}

const def = (defaultKeys: KeyId | KeyId[], description: string): KeybindingDefinition => ({ defaultKeys, description });

/** Application actions (docs/design/interactive.md#keybindings) for this platform, plus the library's own. */
export function appKeybindingDefinitions(
	platform: NodeJS.Platform = process.platform,
	env = process.env,
): KeybindingDefinitions {
	const windows = usesWindowsBindings(platform, env);
	const nativeWindows = platform === "win32";
	const mac = platform === "darwin";
	const wsl = windows && !nativeWindows;
	return {
		...TUI_KEYBINDINGS,
		"tui.editor.undo": def(nativeWindows ? "ctrl+z" : wsl ? "alt+z" : "ctrl+-", "Undo"),
		...(windows
			? {
					"tui.altScreen.previousPrompt": def("ctrl+up", "Previous prompt"),
					"tui.altScreen.nextPrompt": def("ctrl+down", "Next prompt"),
					"tui.altScreen.search": def("ctrl+f", "Search"),
				}
			: {}),
		"app.interrupt": def("escape", "Interrupt / cancel"),
		"app.clear": def("ctrl+c", "Clear editor"),
		"app.exit": def("ctrl+d", "Exit (empty editor)"),
		"app.suspend": def(nativeWindows ? [] : "ctrl+z", "Suspend to background"),
		"app.thinking.cycle": def("shift+tab", "Cycle thinking level"),
		"app.thinking.save": def("ctrl+s", "Save thinking level as default"),
		"app.thinking.toggle": def("ctrl+t", "Show/hide thinking blocks"),
		"app.model.cycleForward": def("ctrl+p", "Next model"),
		"app.model.cycleBackward": def(windows ? "alt+p" : "shift+ctrl+p", "Previous model"),
		"app.model.select": def("ctrl+l", "Select model"),
		"app.models.save": def("ctrl+s", "Save model as default"),
		"app.models.enableAll": def("ctrl+a", "Enable all models"),
		"app.models.clearAll": def("ctrl+x", "Disable all models"),
		"app.models.toggleProvider": def("ctrl+p", "Toggle provider"),
		"app.models.reorderUp": def("alt+up", "Move model up"),
		"app.models.reorderDown": def("alt+down", "Move model down"),
		"app.tools.expand": def("ctrl+o", "Expand/collapse tool output"),
		"app.editor.external": def("ctrl+g", "Open external editor"),
		"app.message.copy": def("ctrl+x", "Copy last agent message"),
		"app.message.followUp": def(windows ? "ctrl+q" : "alt+enter", "Queue follow-up message"),
		"app.message.dequeue": def(windows ? "alt+q" : "alt+up", "Edit all queued messages"),
		"app.clipboard.pasteImage": def(windows ? ["alt+v", "ctrl+v"] : "ctrl+v", "Paste image/files"),
		"app.session.new": def([], "New session"),
		"app.session.tree": def([], "Session tree"),
		"app.session.fork": def([], "Fork session"),
		"app.session.resume": def([], "Resume session"),
		"app.session.togglePath": def("ctrl+p", "Toggle session path"),
		"app.session.toggleSort": def("ctrl+s", "Toggle sort order"),
		"app.session.toggleNamedFilter": def("ctrl+n", "Named sessions only"),
		"app.session.rename": def("ctrl+r", "Rename session"),
		"app.session.delete": def("ctrl+d", "Delete session"),
		"app.session.deleteNoninvasive": def("ctrl+backspace", "Delete session (empty query)"),
		"app.tree.foldOrUp": def(mac ? ["alt+left", "ctrl+left"] : ["ctrl+left", "alt+left"], "Fold / move up"),
		"app.tree.unfoldOrDown": def(mac ? ["alt+right", "ctrl+right"] : ["ctrl+right", "alt+right"], "Unfold / down"),
		"app.tree.editLabel": def("shift+l", "Edit label"),
		"app.tree.toggleLabelTimestamp": def("shift+t", "Toggle label timestamps"),
		"app.tree.filter.default": def("ctrl+d", "Default filter"),
		"app.tree.filter.noTools": def("ctrl+t", "Hide tools"),
		"app.tree.filter.userOnly": def("ctrl+u", "User messages only"),
		"app.tree.filter.labeledOnly": def("ctrl+l", "Labeled entries only"),
		"app.tree.filter.all": def("ctrl+a", "All entries"),
		"app.tree.filter.cycleForward": def("ctrl+o", "Next filter"),
		"app.tree.filter.cycleBackward": def("shift+ctrl+o", "Previous filter"),
	};
}

export interface LoadedKeybindings {
	bindings: UserKeybindings;
	/** Why the file was ignored, when it was. */
	problem?: string;
}

/**
 * Parses keybindings.json content: legacy names migrated (namespaced wins), bad key ids dropped. A
 * syntax error names `path`, line and column.
 */
export function parseUserKeybindings(text: string, path = "keybindings.json"): LoadedKeybindings {
	let data: unknown;
	try {
		data = parseJsonFile(path, text);
	} catch (error) {
		return { bindings: {}, problem: `Invalid keybindings.json: ${(error as Error).message}` };
	}
	if (typeof data !== "object" || data === null || Array.isArray(data)) {
		return { bindings: {}, problem: "Invalid keybindings.json: expected a JSON object" };
	}
	const bindings: UserKeybindings = {};
	const entries = Object.entries(data as Record<string, unknown>).filter(([name]) => name !== "$schema");
	const keysOf = (raw: unknown): KeyId[] | undefined => {
		if (Array.isArray(raw)) return raw.filter(isValidKeyId);
		return isValidKeyId(raw) ? [raw] : undefined;
	};
	for (const [name, raw] of entries) {
		if (LEGACY_ACTION_NAMES[name]) continue;
		const keys = keysOf(raw);
		if (keys) bindings[name] = keys;
	}
	for (const [name, raw] of entries) {
		const action = LEGACY_ACTION_NAMES[name];
		if (!action || Object.hasOwn(bindings, action)) continue;
		const keys = keysOf(raw);
		if (keys) bindings[action] = keys;
	}
	return { bindings };
}

export function keybindingsPath(agentDir: string): string {
	return join(agentDir, "keybindings.json");
}

export function loadUserKeybindings(agentDir: string): LoadedKeybindings {
	const path = keybindingsPath(agentDir);
	if (!existsSync(path)) return { bindings: {} };
	try {
		return parseUserKeybindings(readFileSync(path, "utf8"), path);
	} catch (error) {
		return { bindings: {}, problem: `Could not read ${path}: ${(error as Error).message}` };
	}
}

/** A manager with the platform's defaults and the user's file applied. */
export function createAppKeybindings(
	agentDir: string,
	platform: NodeJS.Platform = process.platform,
	env = process.env,
): { manager: KeybindingsManager; problem?: string } {
	const loaded = loadUserKeybindings(agentDir);
	const manager = new KeybindingsManager(appKeybindingDefinitions(platform, env), loaded.bindings);
	return loaded.problem ? { manager, problem: loaded.problem } : { manager };
}

/** `ctrl+shift+p` → `Ctrl+Shift+P`, as shown in hints and `/hotkeys`. */
export function formatKeyId(key: string): string {
	const parts = key.endsWith("++") ? [...key.slice(0, -2).split("+"), "+"] : key.split("+");
	return parts
		.map((part) => (part.length === 1 ? part.toUpperCase() : part[0]!.toUpperCase() + part.slice(1)))
		.join("+");
}

/** The first key of an action, formatted; empty when the action is unbound. */
export function boundKey(manager: KeybindingsManager, action: string): string {
	const [first] = manager.getKeys(action);
	return first ? formatKeyId(first) : "";
}
