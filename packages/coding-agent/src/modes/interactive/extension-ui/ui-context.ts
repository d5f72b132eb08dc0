import {
	type AutocompleteProvider,
	type Component,
	type InputListener,
	type KeybindingsManager,
	type OverlayHandle,
	type SelectItem,
	sanitizeTerminalText,
	type TUI,
	truncateToWidth,
} from "@tau/tui";
import type {
	DialogOptions,
	DisposableComponent,
	EditorFactory,
	ExtensionUIContext,
	WidgetOptions,
} from "../../../core/extensions/index.js";
import type { Theme } from "../../../core/resources/index.js";
import type { NoticeKind } from "../components/chat-notice.js";

/** The coordinator's side of `ctx.ui` in interactive mode. */
export interface ExtensionUiHost {
	readonly tui: TUI;
	readonly keys: KeybindingsManager;
	currentTheme(): Theme;
	availableThemes(): Theme[];
	setTheme(theme: Theme): void;
	notify(kind: NoticeKind, message: string): void;
	pick(
		title: string,
		items: SelectItem[],
		options?: { signal?: AbortSignal; timeoutMs?: number },
	): Promise<SelectItem | undefined>;
	ask(
		title: string,
		options?: { placeholder?: string; prefill?: string; signal?: AbortSignal; timeoutMs?: number },
	): Promise<string | undefined>;
	/** A multi-line editor dialog; the text keeps its newlines. */
	edit(title: string, options?: { prefill?: string; signal?: AbortSignal }): Promise<string | undefined>;
	/** Shows a component in place of the editor until `done`; returns a function that removes it. */
	showInPlaceOfEditor(component: Component): () => void;
	block(kind: "question" | "permission", title: string): () => void;
	setStatus(key: string, text: string | undefined): void;
	setWidget(key: string, component: DisposableComponent | undefined, placement: "aboveEditor" | "belowEditor"): void;
	setHeader(component: DisposableComponent | undefined): void;
	setFooter(factory: Parameters<ExtensionUIContext["setFooter"]>[0]): void;
	setWorkingMessage(message: string | undefined): void;
	setWorkingVisible(visible: boolean): void;
	setWorkingIndicator(options: { frames?: string[]; intervalMs?: number } | undefined): void;
	setHiddenThinkingLabel(label: string | undefined): void;
	setTitle(title: string): void;
	getEditorText(): string;
	setEditorText(text: string): void;
	pasteToEditor(text: string): void;
	/** Replaces the prompt editor with the factory's component; undefined restores the built-in one. */
	setEditorComponent(factory: EditorFactory | undefined): void;
	/** Raw terminal input listeners; kept across renderer switches. */
	addInputListener(listener: InputListener): () => void;
	addAutocompleteWrapper(wrapper: (current: AutocompleteProvider) => AutocompleteProvider): void;
	toolsExpanded(): boolean;
	setToolsExpanded(expanded: boolean): void;
}

/** Resolves `fallback` when the signal aborts or the timeout passes (the dialog options `timeout` and `signal`). */
function withDialogOptions<T>(
	start: (signal: AbortSignal) => Promise<T>,
	fallback: T,
	options: DialogOptions | undefined,
): Promise<T> {
	const controller = new AbortController();
	const abort = () => controller.abort();
	options?.signal?.addEventListener("abort", abort, { once: true });
	const timer = options?.timeout !== undefined ? setTimeout(abort, options.timeout) : undefined;
	if (options?.signal?.aborted) abort();
	return start(controller.signal)
		.then((value) => (controller.signal.aborted ? fallback : value))
		.finally(() => {
			if (timer) clearTimeout(timer);
			options?.signal?.removeEventListener("abort", abort);
		});
}

/** The countdown a dialog shows for its `timeout` option. */
function timeoutOf(options: DialogOptions | undefined): { timeoutMs?: number } {
	return options?.timeout !== undefined ? { timeoutMs: options.timeout } : {};
}

/** `ctx.ui` with `hasUI: true`, bound through the extension runner's `setUIContext`. */
export function createExtensionUiContext(host: ExtensionUiHost): ExtensionUIContext {
	let editorFactory: EditorFactory | undefined;
	const dialog = <T>(
		title: string,
		kind: "question" | "permission",
		run: (signal: AbortSignal) => Promise<T>,
		fallback: T,
		options?: DialogOptions,
	) => {
		const unblock = host.block(kind, title);
		return withDialogOptions(run, fallback, options).finally(unblock);
	};
	return {
		select: (title, options, opts) =>
			dialog(
				title,
				"question",
				async (signal) => (await host.pick(title, asItems(options), { signal, ...timeoutOf(opts) }))?.value,
				undefined,
				opts,
			),
		confirm: (title, message, opts) =>
			dialog(
				title,
				"permission",
				// The message on lines of its own under the title: the whole question stays visible.
				async (signal) =>
					(await host.pick(`${title}\n${message}`, asItems(["Yes", "No"]), { signal, ...timeoutOf(opts) }))
						?.value === "Yes",
				false,
				opts,
			),
		input: (title, placeholder, opts) =>
			dialog(
				title,
				"question",
				(signal) => host.ask(title, { signal, ...(placeholder ? { placeholder } : {}), ...timeoutOf(opts) }),
				undefined,
				opts,
			),
		editor: (title, prefill) =>
			dialog(title, "question", (signal) => host.edit(title, prefill ? { prefill, signal } : { signal }), undefined),
		custom: async (factory, options) => {
			const unblock = options?.blocked ? host.block("question", options.blocked.message) : () => {};
			let remove: (() => void) | undefined;
			let overlay: OverlayHandle | undefined;
			let component: DisposableComponent | undefined;
			try {
				return await new Promise((resolve, reject) => {
					const done = (result: unknown) => {
						remove?.();
						overlay?.hide();
						component?.dispose?.();
						resolve(result as never);
					};
					Promise.resolve(factory(host.tui, host.currentTheme(), host.keys, done))
						.then((created) => {
							component = created;
							if (options?.overlay) {
								const overlayOptions =
									typeof options.overlayOptions === "function"
										? options.overlayOptions()
										: options.overlayOptions;
								overlay = host.tui.showOverlay(created, overlayOptions);
								options.onHandle?.(overlay);
							} else remove = host.showInPlaceOfEditor(created);
						})
						.catch(reject);
				});
			} finally {
				unblock();
			}
		},
		notify: (message, type = "info") => host.notify(type, message),
		setStatus: (key, text) => host.setStatus(key, text),
		setWidget: (key, content, options?: WidgetOptions) => {
			const placement = options?.placement ?? "aboveEditor";
			if (content === undefined) host.setWidget(key, undefined, placement);
			else if (Array.isArray(content)) host.setWidget(key, linesComponent(content), placement);
			else host.setWidget(key, content(host.tui, host.currentTheme()), placement);
		},
		setTitle: (title) => host.setTitle(title),
		setWorkingMessage: (message) => host.setWorkingMessage(message),
		setWorkingVisible: (visible) => host.setWorkingVisible(visible),
		setWorkingIndicator: (options) => host.setWorkingIndicator(options),
		setHiddenThinkingLabel: (label) => host.setHiddenThinkingLabel(label),
		setFooter: (factory) => host.setFooter(factory),
		setHeader: (factory) => host.setHeader(factory ? factory(host.tui, host.currentTheme()) : undefined),
		onTerminalInput: (handler) => host.addInputListener(handler),
		pasteToEditor: (text) => host.pasteToEditor(text),
		setEditorText: (text) => host.setEditorText(text),
		getEditorText: () => host.getEditorText(),
		addAutocompleteProvider: (factory) => host.addAutocompleteWrapper(factory),
		setEditorComponent: (factory) => {
			editorFactory = factory;
			host.setEditorComponent(factory);
		},
		getEditorComponent: () => editorFactory,
		get theme() {
			return host.currentTheme();
		},
		getAllThemes: () => host.availableThemes().map((theme) => ({ name: theme.name, path: theme.sourcePath })),
		getTheme: (name) => host.availableThemes().find((theme) => theme.name === name),
		setTheme: (theme) => {
			const found = typeof theme === "string" ? host.availableThemes().find((t) => t.name === theme) : theme;
			if (!found) return { success: false, error: `Theme not found: ${String(theme)}` };
			host.setTheme(found);
			return { success: true };
		},
		getToolsExpanded: () => host.toolsExpanded(),
		setToolsExpanded: (expanded) => host.setToolsExpanded(expanded),
	};
}

function asItems(options: string[]): SelectItem[] {
	return options.map((option) => ({ value: option, label: option }));
}

/** Widget lines an extension passed as strings: styled by the extension, sanitised here. */
function linesComponent(lines: string[]): Component {
	const copy = lines.flatMap((line) => sanitizeTerminalText(line, { keepStyle: true }).split("\n"));
	return { render: (width) => copy.map((line) => truncateToWidth(line, width)), invalidate: () => {} };
}
