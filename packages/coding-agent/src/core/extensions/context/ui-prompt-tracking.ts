import type { ExtensionUIContext } from "../api/context.js";
import type { UiPromptEvent } from "../api/events.js";

type PromptKind = UiPromptEvent["kind"];

/**
 * Wraps a real UI so the outermost of nested or overlapping dialogs emits `ui_prompt_start`, and the
 * last one to settle emits `ui_prompt_end` with the outer prompt's kind and title. Events go out on
 * a microtask, not awaited (best effort).
 */
export function trackUiPrompts(ui: ExtensionUIContext, emit: (event: UiPromptEvent) => void): ExtensionUIContext {
	let open = 0;
	let outer: { kind: PromptKind; title?: string } | undefined;
	const send = (type: UiPromptEvent["type"], prompt: { kind: PromptKind; title?: string }) => {
		const event: UiPromptEvent = { type, reason: "ui_prompt", kind: prompt.kind };
		if (prompt.title !== undefined) event.title = prompt.title;
		queueMicrotask(() => emit(event));
	};
	const track = async <T>(kind: PromptKind, title: string | undefined, run: () => Promise<T>): Promise<T> => {
		if (open++ === 0) {
			outer = title === undefined ? { kind } : { kind, title };
			send("ui_prompt_start", outer);
		}
		try {
			return await run();
		} finally {
			if (--open === 0 && outer) send("ui_prompt_end", outer);
		}
	};
	const wrapped = Object.create(ui) as ExtensionUIContext;
	wrapped.select = (title, options, opts) => track("select", title, () => ui.select(title, options, opts));
	wrapped.confirm = (title, message, opts) => track("confirm", title, () => ui.confirm(title, message, opts));
	wrapped.input = (title, placeholder, opts) => track("input", title, () => ui.input(title, placeholder, opts));
	wrapped.editor = (title, prefill) => track("editor", title, () => ui.editor(title, prefill));
	wrapped.custom = (factory, options) => track("custom", undefined, () => ui.custom(factory, options));
	return wrapped;
}
