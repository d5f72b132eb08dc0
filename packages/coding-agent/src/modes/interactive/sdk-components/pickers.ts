import type { ThinkingLevel } from "@tau/agent";
import type { Api, AuthCheck, Model } from "@tau/ai";
import { Container, type Focusable, getKeybindings, type SelectItem, type TUI } from "@tau/tui";
import type { ModelRuntime } from "../../../config/index.js";
import type { SessionInfo, SessionTreeNode } from "../../../core/session/index.js";
import { SelectDialog } from "../selectors/select-dialog.js";
import { activeTheme } from "../theme/active-theme.js";

/**
 * The pickers of the interactive mode under the constructor signatures extensions and SDK hosts know
 * (docs/extensions.md): each is a titled, filterable list (tau's select dialog) that reports the
 * chosen value or a cancel.
 */
abstract class PickerComponent extends Container implements Focusable {
	private readonly dialog: SelectDialog;

	protected constructor(
		title: string,
		items: SelectItem[],
		onPick: (value: string) => void,
		onCancel: () => void,
		options: { selected?: string; filter?: string } = {},
	) {
		super();
		this.dialog = new SelectDialog(
			activeTheme(),
			getKeybindings(),
			{
				title,
				items,
				...(options.selected !== undefined ? { selected: options.selected } : {}),
				...(options.filter ? { filter: options.filter } : {}),
			},
			(item) => (item ? onPick(item.value) : onCancel()),
		);
		this.addChild(this.dialog);
	}

	get focused(): boolean {
		return this.dialog.focused;
	}

	set focused(value: boolean) {
		this.dialog.focused = value;
	}

	handleInput(data: string): void {
		this.dialog.handleInput(data);
	}
}

/** Interactive-mode picker for the thinking level among the levels the model supports. */
export class ThinkingSelectorComponent extends PickerComponent {
	constructor(
		currentLevel: ThinkingLevel,
		availableLevels: ThinkingLevel[],
		onSelect: (level: ThinkingLevel) => void,
		onCancel: () => void,
	) {
		const items = availableLevels.map((level) => ({ value: level, label: level }));
		super("Thinking level", items, (value) => onSelect(value as ThinkingLevel), onCancel, { selected: currentLevel });
	}
}

/** Interactive-mode picker for whether images are shown inline in the terminal. */
export class ShowImagesSelectorComponent extends PickerComponent {
	constructor(currentValue: boolean, onSelect: (show: boolean) => void, onCancel: () => void) {
		const items = [
			{ value: "yes", label: "Yes", description: "Show images inline in the terminal" },
			{ value: "no", label: "No", description: "Show a placeholder instead" },
		];
		super("Show images", items, (value) => onSelect(value === "yes"), onCancel, {
			selected: currentValue ? "yes" : "no",
		});
	}
}

/** Interactive-mode picker for the theme, previewing each theme as it is highlighted. */
export class ThemeSelectorComponent extends PickerComponent {
	constructor(
		currentTheme: string,
		onSelect: (themeName: string) => void,
		onCancel: () => void,
		_onPreview?: (themeName: string) => void,
		themeNames: readonly string[] = ["system"],
	) {
		const names = themeNames.includes(currentTheme) ? themeNames : [currentTheme, ...themeNames];
		super(
			"Theme",
			names.map((name) => ({ value: name, label: name })),
			onSelect,
			onCancel,
			{ selected: currentTheme },
		);
	}
}

export interface ExtensionSelectorOptions {
	tui?: TUI;
	timeout?: number;
	onToggleToolsExpanded?: () => void;
	description?: string;
}

/** `ctx.ui.select` as a component: a title and string options. */
export class ExtensionSelectorComponent extends PickerComponent {
	constructor(
		title: string,
		options: string[],
		onSelect: (option: string) => void,
		onCancel: () => void,
		opts: ExtensionSelectorOptions = {},
	) {
		const heading = opts.description ? `${title}\n${opts.description}` : title;
		super(
			heading,
			options.map((option) => ({ value: option, label: option })),
			onSelect,
			onCancel,
		);
	}
}

export interface UserMessageItem {
	id: string;
	text: string;
	timestamp?: string;
}

/** Picks one of the session's user messages (fork and tree targets). */
export class UserMessageSelectorComponent extends PickerComponent {
	constructor(
		messages: UserMessageItem[],
		onSelect: (entryId: string) => void,
		onCancel: () => void,
		initialSelectedId?: string,
	) {
		const items = messages.map((message) => ({ value: message.id, label: message.text.replace(/\s+/g, " ") }));
		super("Select a message", items, onSelect, onCancel, {
			...(initialSelectedId !== undefined ? { selected: initialSelectedId } : {}),
		});
	}
}

export interface AuthSelectorProvider {
	id: string;
	name: string;
	authType: "oauth" | "api_key";
	status?: AuthCheck;
	subscription?: boolean;
}

/** `/login` and `/logout` provider lists. */
export class OAuthSelectorComponent extends PickerComponent {
	readonly capturesViewportInput = true;

	constructor(
		mode: "login" | "logout",
		providers: AuthSelectorProvider[],
		onSelect: (providerId: string, authType: AuthSelectorProvider["authType"]) => void,
		onCancel: () => void,
		initialSearchInput?: string,
	) {
		const items = providers.map((provider, index) => ({
			value: String(index),
			label: provider.name,
			description: `${provider.authType === "oauth" ? (provider.subscription ? "subscription" : "OAuth") : "API key"}${provider.status ? " · configured" : ""}`,
		}));
		super(
			mode === "login" ? "Log in to a provider" : "Log out of a provider",
			items,
			(value) => {
				const provider = providers[Number(value)];
				if (provider) onSelect(provider.id, provider.authType);
			},
			onCancel,
			{ ...(initialSearchInput ? { filter: initialSearchInput } : {}) },
		);
	}
}

const modelKey = (model: Pick<Model<Api>, "provider" | "id">) => `${model.provider}/${model.id}`;

/** `/model`: the scoped models when there are any, else every model with credentials. */
export class ModelSelectorComponent extends PickerComponent {
	readonly capturesViewportInput = true;

	constructor(
		_tui: TUI,
		currentModel: Model<any> | undefined,
		modelRuntime: ModelRuntime,
		scopedModels: ReadonlyArray<{ model: Model<any>; thinkingLevel?: string }>,
		onSelect: (model: Model<any>) => void,
		onCancel: () => void,
		initialSearchInput?: string,
	) {
		const models =
			scopedModels.length > 0 ? scopedModels.map((entry) => entry.model) : modelRuntime.getAvailableSnapshot();
		const byKey = new Map(models.map((model) => [modelKey(model), model]));
		const items = models.map((model) => ({ value: modelKey(model), label: model.id, description: model.provider }));
		super(
			"Select model",
			items,
			(value) => {
				const model = byKey.get(value);
				if (model) onSelect(model);
			},
			onCancel,
			{
				...(currentModel ? { selected: modelKey(currentModel) } : {}),
				...(initialSearchInput ? { filter: initialSearchInput } : {}),
			},
		);
	}
}

/**
 * `/resume`: the sessions of the current directory, newest first. The loader runs once when the
 * component is built; `requestRender` is called when they arrive.
 */
export class SessionSelectorComponent extends Container implements Focusable {
	private picker: PickerComponent | undefined;
	private wantsFocus = false;

	constructor(
		currentSessionsLoader: () => Promise<SessionInfo[]>,
		_allSessionsLoader: () => Promise<SessionInfo[]>,
		onSelect: (sessionPath: string) => void,
		onCancel: () => void,
		_onExit: () => void,
		requestRender: () => void,
	) {
		super();
		void currentSessionsLoader().then((sessions) => {
			const items = [...sessions]
				.sort((a, b) => b.modified.getTime() - a.modified.getTime())
				.map((session) => ({
					value: session.path,
					label: session.name ?? session.firstMessage.replace(/\s+/g, " "),
					description: session.modified.toLocaleString(),
				}));
			this.picker = new SessionList(items, onSelect, onCancel);
			this.picker.focused = this.wantsFocus;
			this.clear();
			this.addChild(this.picker);
			requestRender();
		}, onCancel);
	}

	get focused(): boolean {
		return this.wantsFocus;
	}

	set focused(value: boolean) {
		this.wantsFocus = value;
		if (this.picker) this.picker.focused = value;
	}

	handleInput(data: string): void {
		this.picker?.handleInput(data);
	}
}

class SessionList extends PickerComponent {
	constructor(items: SelectItem[], onSelect: (path: string) => void, onCancel: () => void) {
		super("Resume session", items, onSelect, onCancel);
	}
}

/** `/tree`: every entry of the session tree, indented by depth; the current leaf is preselected. */
export class TreeSelectorComponent extends PickerComponent {
	constructor(
		tree: SessionTreeNode[],
		currentLeafId: string | null,
		_terminalHeight: number,
		onSelect: (entryId: string) => void,
		onCancel: () => void,
	) {
		const items: SelectItem[] = [];
		const walk = (nodes: readonly SessionTreeNode[], depth: number) => {
			for (const node of nodes) {
				const entry = node.entry;
				const text =
					entry.type === "message"
						? `${entry.message.role}: ${JSON.stringify((entry.message as { content?: unknown }).content ?? "").slice(0, 80)}`
						: entry.type;
				items.push({
					value: entry.id,
					label: `${"  ".repeat(depth)}${node.label ? `[${node.label}] ` : ""}${text}`,
				});
				walk(node.children, depth + 1);
			}
		};
		walk(tree, 0);
		super("Session tree", items, onSelect, onCancel, {
			...(currentLeafId !== null ? { selected: currentLeafId } : {}),
		});
	}
}
