import {
	type AutocompleteProvider,
	type Component,
	type InputListener,
	type KeybindingsManager,
	replaceControlCharacters,
	type SelectItem,
	type TUI,
} from "@tau/tui";
import type { AgentSession } from "../../../core/agent-session/agent-session.js";
import type { DisposableComponent, EditorFactory, ExtensionUIContext } from "../../../core/extensions/index.js";
import type { Theme } from "../../../core/resources/index.js";
import type { NoticeKind } from "../components/chat-notice.js";
import type { StatusLine } from "../components/status-line.js";
import { FooterData } from "../controller/footer-data.js";
import type { ExtensionRegions } from "./extension-regions.js";
import type { ExtensionUiHost } from "./ui-context.js";

/** What the interactive coordinator lends to `ctx.ui`: its dialogs, its editor and its renderer. */
export interface ExtensionUiOwner
	extends Pick<
		ExtensionUiHost,
		| "tui"
		| "keys"
		| "notify"
		| "pick"
		| "ask"
		| "edit"
		| "showInPlaceOfEditor"
		| "block"
		| "getEditorText"
		| "setEditorText"
		| "pasteToEditor"
		| "setEditorComponent"
		| "toolsExpanded"
		| "setToolsExpanded"
	> {
	readonly session: AgentSession;
	readonly theme: Theme;
	/** Makes `theme` the one new output is drawn in. */
	useTheme(theme: Theme): void;
	refreshFooter(): void;
	/** The renderer running now (input listeners are moved along when it is replaced). */
	currentRenderer(): TUI;
	/** Re-applies the transcript's collapse and thinking toggles. */
	applyTranscriptToggles(): void;
	refreshAutocomplete(): void;
}

/**
 * The interactive side of `ctx.ui` (docs/extensions.md#the-ctx-object): statuses, widgets, header and footer, working
 * indicator, title, raw input listeners and autocomplete wrappers, plus the owner's dialogs.
 */
export class ExtensionUiSurface implements ExtensionUiHost {
	readonly statuses = new Map<string, string>();
	readonly inputListeners = new Set<InputListener>();
	/** What custom footers read; the owner moves it along when the session's directory changes. */
	readonly footerData: FooterData;
	hiddenThinkingLabel = "Thinking...";
	private autocompleteWrappers: ((current: AutocompleteProvider) => AutocompleteProvider)[] = [];

	constructor(
		private readonly owner: ExtensionUiOwner,
		private readonly regions: ExtensionRegions,
		private readonly statusLine: StatusLine,
	) {
		this.footerData = new FooterData(owner.session.cwd, this.statuses, () => {
			const available = owner.session.modelRuntime.getAvailableSnapshot();
			return new Set(available.map((model) => model.provider)).size;
		});
	}

	get tui(): TUI {
		return this.owner.tui;
	}

	get keys(): KeybindingsManager {
		return this.owner.keys;
	}

	/** The wrappers extensions added, applied in order to the built-in provider. */
	wrappers(): readonly ((current: AutocompleteProvider) => AutocompleteProvider)[] {
		return this.autocompleteWrappers;
	}

	currentTheme(): Theme {
		return this.owner.theme;
	}

	availableThemes(): Theme[] {
		return this.owner.session.resourceLoader.getThemes().themes;
	}

	setTheme(theme: Theme): void {
		this.owner.useTheme(theme);
		this.owner.notify("info", `Theme "${theme.name}" applies to new output; restart for all components.`);
	}

	notify(kind: NoticeKind, message: string): void {
		this.owner.notify(kind, message);
	}

	pick(
		title: string,
		items: SelectItem[],
		options?: { signal?: AbortSignal; timeoutMs?: number },
	): Promise<SelectItem | undefined> {
		return this.owner.pick(title, items, options);
	}

	ask(
		title: string,
		options?: { placeholder?: string; prefill?: string; signal?: AbortSignal; timeoutMs?: number },
	): Promise<string | undefined> {
		return this.owner.ask(title, options);
	}

	edit(title: string, options?: { prefill?: string; signal?: AbortSignal }): Promise<string | undefined> {
		return this.owner.edit(title, options);
	}

	showInPlaceOfEditor(component: Component): () => void {
		return this.owner.showInPlaceOfEditor(component);
	}

	block(kind: "question" | "permission", title: string): () => void {
		return this.owner.block(kind, title);
	}

	getEditorText(): string {
		return this.owner.getEditorText();
	}

	setEditorText(text: string): void {
		this.owner.setEditorText(text);
	}

	pasteToEditor(text: string): void {
		this.owner.pasteToEditor(text);
	}

	setEditorComponent(factory: EditorFactory | undefined): void {
		this.owner.setEditorComponent(factory);
	}

	toolsExpanded(): boolean {
		return this.owner.toolsExpanded();
	}

	setToolsExpanded(expanded: boolean): void {
		this.owner.setToolsExpanded(expanded);
	}

	setStatus(key: string, text: string | undefined): void {
		if (text === undefined) this.statuses.delete(key);
		else this.statuses.set(key, text);
		this.owner.refreshFooter();
	}

	setWidget(key: string, component: DisposableComponent | undefined, placement: "aboveEditor" | "belowEditor"): void {
		this.regions.setWidget(key, component, placement);
	}

	setHeader(component: DisposableComponent | undefined): void {
		this.regions.setHeader(component);
	}

	setFooter(factory: Parameters<ExtensionUIContext["setFooter"]>[0]): void {
		this.regions.setFooter(factory?.(this.owner.tui, this.owner.theme, this.footerData));
	}

	setWorkingMessage(message: string | undefined): void {
		this.statusLine.workingMessage = message;
	}

	setWorkingVisible(visible: boolean): void {
		this.statusLine.workingVisible = visible;
		if (!visible) this.statusLine.clearIndicator();
	}

	setWorkingIndicator(options: { frames?: string[]; intervalMs?: number } | undefined): void {
		this.statusLine.indicator = options;
	}

	setHiddenThinkingLabel(label: string | undefined): void {
		this.hiddenThinkingLabel = label ?? "Thinking...";
		this.owner.applyTranscriptToggles();
	}

	setTitle(title: string): void {
		this.owner.tui.terminal.setTitle(replaceControlCharacters(title));
	}

	addInputListener(listener: InputListener): () => void {
		this.inputListeners.add(listener);
		this.owner.currentRenderer().addInputListener(listener);
		return () => {
			this.inputListeners.delete(listener);
			this.owner.currentRenderer().removeInputListener(listener);
		};
	}

	addAutocompleteWrapper(wrapper: (current: AutocompleteProvider) => AutocompleteProvider): void {
		this.autocompleteWrappers = [...this.autocompleteWrappers, wrapper];
		this.owner.refreshAutocomplete();
	}
}
