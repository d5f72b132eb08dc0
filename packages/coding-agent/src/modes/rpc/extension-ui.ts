import { randomUUID } from "node:crypto";
import type { DialogOptions, ExtensionUIContext } from "../../core/extensions/index.js";
import type { Theme } from "../../core/resources/index.js";
import type { RpcExtensionUIRequest, RpcExtensionUIResponse } from "./types.js";

type DialogRequest = Extract<RpcExtensionUIRequest, { method: "select" | "confirm" | "input" | "editor" }>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type RequestBody<R> = DistributiveOmit<R, "type" | "id">;

const NOT_SUPPORTED_THEME = "Theme switching not supported in RPC mode";

/**
 * The extension-UI sub-protocol (docs/design/rpc.md#extension-ui): dialogs become `extension_ui_request` records
 * answered by `extension_ui_response` lines; timeouts and aborts are resolved here with the dialog's
 * default so clients never have to track them.
 */
export class RpcExtensionUI {
	private readonly pending = new Map<string, (response: RpcExtensionUIResponse) => void>();

	constructor(
		private readonly send: (request: RpcExtensionUIRequest) => void,
		private readonly theme: () => Theme,
	) {}

	/** Routes a client answer; unknown or already-resolved ids are ignored. */
	handleResponse(response: RpcExtensionUIResponse): void {
		const resolve = this.pending.get(response.id);
		if (!resolve) return;
		this.pending.delete(response.id);
		resolve(response);
	}

	createContext(): ExtensionUIContext {
		const nothing = () => {};
		const theme = this.theme;
		return {
			select: (title, options, opts) =>
				this.dialog(
					{ method: "select", title, options, ...timeoutOf(opts) },
					opts?.signal,
					undefined,
					answeredValue,
				),
			confirm: (title, message, opts) =>
				this.dialog({ method: "confirm", title, message, ...timeoutOf(opts) }, opts?.signal, false, (response) =>
					"confirmed" in response ? response.confirmed === true : false,
				),
			input: (title, placeholder, opts) =>
				this.dialog(
					{ method: "input", title, ...(placeholder !== undefined ? { placeholder } : {}), ...timeoutOf(opts) },
					opts?.signal,
					undefined,
					answeredValue,
				),
			// No `timeout` on the wire for editor (pi compatibility); an abort signal still resolves it.
			editor: (title, prefill, opts?: DialogOptions) =>
				this.dialog(
					{ method: "editor", title, ...(prefill !== undefined ? { prefill } : {}) },
					opts?.signal,
					undefined,
					answeredValue,
				),
			custom: async () => undefined as never,
			notify: (message, type) => this.fire({ method: "notify", message, ...(type ? { notifyType: type } : {}) }),
			setStatus: (statusKey, statusText) =>
				this.fire({ method: "setStatus", statusKey, ...(statusText !== undefined ? { statusText } : {}) }),
			setWidget: (widgetKey, content, options) => {
				// Component factories need a terminal; only string lines and clearing reach the client.
				if (typeof content === "function") return;
				this.fire({
					method: "setWidget",
					widgetKey,
					...(content !== undefined ? { widgetLines: content } : {}),
					...(options?.placement ? { widgetPlacement: options.placement } : {}),
				});
			},
			setTitle: (title) => this.fire({ method: "setTitle", title }),
			setWorkingMessage: nothing,
			setWorkingVisible: nothing,
			setWorkingIndicator: nothing,
			setHiddenThinkingLabel: nothing,
			setFooter: nothing,
			setHeader: nothing,
			onTerminalInput: () => nothing,
			pasteToEditor: (text) => this.fire({ method: "set_editor_text", text }),
			setEditorText: (text) => this.fire({ method: "set_editor_text", text }),
			getEditorText: () => "",
			addAutocompleteProvider: nothing,
			setEditorComponent: nothing,
			getEditorComponent: () => undefined,
			get theme() {
				return theme();
			},
			getAllThemes: () => [],
			getTheme: () => undefined,
			setTheme: () => ({ success: false, error: NOT_SUPPORTED_THEME }),
			getToolsExpanded: () => false,
			setToolsExpanded: nothing,
		};
	}

	private fire(body: RequestBody<Exclude<RpcExtensionUIRequest, DialogRequest>>): void {
		this.send({ type: "extension_ui_request", id: randomUUID(), ...body } as RpcExtensionUIRequest);
	}

	private dialog<T>(
		body: RequestBody<DialogRequest>,
		signal: AbortSignal | undefined,
		fallback: T,
		map: (response: RpcExtensionUIResponse) => T,
	): Promise<T> {
		if (signal?.aborted) return Promise.resolve(fallback);
		const id = randomUUID();
		return new Promise<T>((resolve) => {
			let timer: NodeJS.Timeout | undefined;
			const finish = (value: T) => {
				this.pending.delete(id);
				if (timer) clearTimeout(timer);
				signal?.removeEventListener("abort", onAbort);
				resolve(value);
			};
			const onAbort = () => finish(fallback);
			this.pending.set(id, (response) =>
				finish("cancelled" in response && response.cancelled ? fallback : map(response)),
			);
			const timeout = "timeout" in body ? body.timeout : undefined;
			if (timeout !== undefined) timer = setTimeout(() => finish(fallback), timeout);
			signal?.addEventListener("abort", onAbort, { once: true });
			this.send({ type: "extension_ui_request", id, ...body } as RpcExtensionUIRequest);
		});
	}
}

function timeoutOf(opts: DialogOptions | undefined): { timeout?: number } {
	return opts?.timeout !== undefined ? { timeout: opts.timeout } : {};
}

function answeredValue(response: RpcExtensionUIResponse): string | undefined {
	return "value" in response && typeof response.value === "string" ? response.value : undefined;
}
