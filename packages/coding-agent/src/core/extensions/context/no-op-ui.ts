import type { Theme } from "../../resources/themes/theme.js";
import type { ExtensionUIContext } from "../api/context.js";

/** The UI of hosts without one (print, JSON, SDK default): dialogs resolve with their defaults. */
export function createNoOpUIContext(getTheme: () => Theme): ExtensionUIContext {
	const nothing = () => {};
	return {
		select: async () => undefined,
		confirm: async () => false,
		input: async () => undefined,
		editor: async () => undefined,
		custom: async () => undefined as never,
		notify: nothing,
		setStatus: nothing,
		setWidget: nothing,
		setTitle: nothing,
		setWorkingMessage: nothing,
		setWorkingVisible: nothing,
		setWorkingIndicator: nothing,
		setHiddenThinkingLabel: nothing,
		setFooter: nothing,
		setHeader: nothing,
		onTerminalInput: () => nothing,
		pasteToEditor: nothing,
		setEditorText: nothing,
		getEditorText: () => "",
		addAutocompleteProvider: nothing,
		setEditorComponent: nothing,
		getEditorComponent: () => undefined,
		get theme() {
			return getTheme();
		},
		getAllThemes: () => [],
		getTheme: () => undefined,
		setTheme: () => ({ success: false, error: "UI not available" }),
		getToolsExpanded: () => false,
		setToolsExpanded: nothing,
	};
}
