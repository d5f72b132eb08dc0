import type {
	EntryRenderer,
	MarkdownMessageType,
	MarkdownTransformContext,
	MessageRenderer,
} from "../api/extension-api.js";
import type { AnyToolDefinition, ToolRenderers } from "../api/tool-definition.js";
import type { Extension } from "../runtime/extension.js";

const DEFAULT_MARKDOWN_SURFACES: readonly MarkdownMessageType[] = ["user", "assistant", "assistant-thinking"];

/** First extension in load order that registered a message renderer for `customType`. */
export function findMessageRenderer(
	extensions: readonly Extension[],
	customType: string,
): MessageRenderer<any> | undefined {
	for (const extension of extensions) {
		const renderer = extension.messageRenderers.get(customType);
		if (renderer) return renderer;
	}
	return undefined;
}

export function findEntryRenderer(
	extensions: readonly Extension[],
	customType: string,
): EntryRenderer<any> | undefined {
	for (const extension of extensions) {
		const renderer = extension.entryRenderers.get(customType);
		if (renderer) return renderer;
	}
	return undefined;
}

/**
 * Display-only Markdown rewrite: transformers chain in load order on the surfaces they registered;
 * a throwing transformer leaves the text produced so far and the chain continues.
 */
export function transformMarkdown(
	extensions: readonly Extension[],
	markdown: string,
	ctx: MarkdownTransformContext,
	onError?: (extensionPath: string, error: unknown) => void,
): string {
	let text = markdown;
	for (const extension of extensions) {
		const registered = extension.markdownTransformer;
		if (!registered) continue;
		const surfaces = registered.options.messageTypes ?? DEFAULT_MARKDOWN_SURFACES;
		if (!surfaces.includes(ctx.messageType)) continue;
		try {
			text = registered.transformer(text, ctx);
		} catch (error) {
			onError?.(extension.path, error);
		}
	}
	return text;
}

/** Per slot: an override's own renderer, else the inherited (built-in) one. */
export function inheritRenderers(own: ToolRenderers | undefined, inherited: ToolRenderers | undefined): ToolRenderers {
	const renderers: ToolRenderers = {};
	const shell = own?.renderShell ?? inherited?.renderShell;
	const call = own?.renderCall ?? inherited?.renderCall;
	const result = own?.renderResult ?? inherited?.renderResult;
	if (shell) renderers.renderShell = shell;
	if (call) renderers.renderCall = call;
	if (result) renderers.renderResult = result;
	return renderers;
}

/**
 * Renderers for a tool: `registerToolRenderer` resolvers in load order, each able to defer to the
 * rest through `next()`, ending at `fallback` (the registered definition with built-in inheritance).
 */
export function resolveToolRenderers(
	extensions: readonly Extension[],
	toolName: string,
	fallback: () => ToolRenderers | undefined,
): ToolRenderers | undefined {
	const resolvers = extensions.flatMap((extension) => extension.toolRendererResolvers);
	const at = (index: number): ToolRenderers | undefined => {
		const resolver = resolvers[index];
		return resolver ? resolver(toolName, () => at(index + 1)) : fallback();
	};
	return at(0);
}

/** Loaded entries are full extensions at runtime; the resource loader's type only promises the common fields. */
export function loadedExtensions(loader: { getExtensions(): { extensions: readonly unknown[] } }): Extension[] {
	return loader
		.getExtensions()
		.extensions.filter((entry): entry is Extension => (entry as Partial<Extension>).shortcuts instanceof Map);
}

/**
 * The renderers a tool's calls are drawn with, in the TUI and in HTML exports: resolvers first, then
 * the tool definition's own; undefined when neither slot has one.
 */
export function toolRenderersFor(
	extensions: readonly Extension[],
	toolName: string,
	definition: () => AnyToolDefinition | undefined,
): ToolRenderers | undefined {
	const renderers = resolveToolRenderers(extensions, toolName, () => {
		const found = definition();
		if (!found) return undefined;
		const { renderShell, renderCall, renderResult } = found;
		return {
			...(renderShell ? { renderShell } : {}),
			...(renderCall ? { renderCall } : {}),
			...(renderResult ? { renderResult } : {}),
		};
	});
	return renderers?.renderCall || renderers?.renderResult ? renderers : undefined;
}
