import type { Markdown, MarkdownOptions } from "@tau/tui";
import type { MarkdownMessageType, MarkdownTransformContext } from "../../../core/extensions/index.js";

/** The extensions' display-only Markdown chain (`registerMarkdownTransformer`), as components apply it. */
export type MarkdownTransform = (markdown: string, ctx: MarkdownTransformContext) => string;

/** What a transcript component knows about its Markdown; the width is only known at layout. */
export interface MarkdownSurface {
	messageType: MarkdownMessageType;
	isStreaming: boolean;
	messageId?: string;
	timestamp?: number;
}

/**
 * Markdown options that run `transform` at layout time, so every streaming update and resize re-applies
 * it to the unchanged source text. `surface` is read live; `prefix` (a label the component adds before
 * the message text) stays out of the transformer's view.
 */
export function transformOptions(
	transform: MarkdownTransform | undefined,
	surface: MarkdownSurface,
	prefix = "",
): MarkdownOptions {
	if (!transform) return {};
	return {
		transform: (markdown, availableWidth) => {
			const body = markdown.startsWith(prefix) ? markdown.slice(prefix.length) : markdown;
			return prefix + transform(body, { ...surface, availableWidth });
		},
	};
}

/**
 * Flips the surface's streaming flag; the Markdown's layout cache is keyed by text and width only, so
 * it is dropped for the transformers to see the final state.
 */
export function setStreaming(surface: MarkdownSurface, markdown: Markdown, isStreaming: boolean): void {
	if (surface.isStreaming === isStreaming) return;
	surface.isStreaming = isStreaming;
	markdown.invalidate();
}
