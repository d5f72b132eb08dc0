import type { Component } from "@tau/tui";
import type { ToolRenderContext, ToolRenderers } from "../core/extensions/index.js";
import type { Theme } from "../core/resources/index.js";
import type { FileEntry } from "../core/session/index.js";
import type { ViewerToolRender } from "./viewer-payload.js";

/** Where an export finds extension renderers, and what they draw with. */
export interface ToolRenderSource {
	renderersFor(toolName: string): ToolRenderers | undefined;
	theme: Theme;
	cwd: string;
	/** Columns the renderers lay out for (the TUI's width stands in for the page's). */
	width?: number;
}

const DEFAULT_WIDTH = 100;

interface ToolResultLike {
	content: unknown[];
	details?: unknown;
	isError: boolean;
	durationMs?: number;
}

function renderContext(
	callId: string,
	args: Record<string, unknown>,
	cwd: string,
	result: ToolResultLike | undefined,
	expanded: boolean,
	state: Record<string, unknown>,
): ToolRenderContext {
	return {
		args,
		toolCallId: callId,
		invalidate: () => {},
		lastComponent: undefined,
		state,
		cwd,
		executionStarted: true,
		argsComplete: true,
		isPartial: false,
		expanded,
		showImages: false,
		isError: result?.isError ?? false,
		durationMs: result?.durationMs,
		outputPad: 0,
		// A page has no key bindings: hints keep their description only.
		keyText: () => "",
		keyHint: (_id, description) => description,
	};
}

/** A renderer's lines, or undefined when it throws (the viewer then draws that slot itself, as the TUI does). */
function linesOf(render: () => Component, width: number): string[] | undefined {
	try {
		return [...render().render(width)];
	} catch {
		return undefined;
	}
}

/**
 * Runs extensions' `renderCall`/`renderResult` (the TUI renderer API, docs/extensions.md) for every
 * tool call in the session, collapsed and expanded, and keeps the ANSI-styled lines for the viewer,
 * which turns them into HTML colour.
 */
export function renderToolsForExport(
	entries: readonly FileEntry[],
	source: ToolRenderSource,
): Record<string, ViewerToolRender> {
	const results = new Map<string, ToolResultLike>();
	for (const entry of entries) {
		if (entry.type === "message" && entry.message.role === "toolResult") {
			results.set(entry.message.toolCallId, entry.message as unknown as ToolResultLike);
		}
	}
	const width = source.width ?? DEFAULT_WIDTH;
	const renders: Record<string, ViewerToolRender> = {};
	for (const entry of entries) {
		if (entry.type !== "message" || entry.message.role !== "assistant") continue;
		for (const block of entry.message.content) {
			if (block.type !== "toolCall") continue;
			const renderers = source.renderersFor(block.name);
			if (!renderers) continue;
			const args = (block.arguments ?? {}) as Record<string, unknown>;
			const result = results.get(block.id);
			const state: Record<string, unknown> = {};
			const context = (expanded: boolean) => renderContext(block.id, args, source.cwd, result, expanded, state);
			const render: ViewerToolRender = {};
			const { renderCall, renderResult } = renderers;
			const call = renderCall
				? linesOf(() => renderCall(args as never, source.theme, context(false)), width)
				: undefined;
			if (call) render.call = call;
			if (renderResult && result) {
				const draw = (expanded: boolean) =>
					linesOf(
						() => renderResult(result as never, { expanded, isPartial: false }, source.theme, context(expanded)),
						width,
					);
				const collapsed = draw(false);
				const expanded = draw(true);
				if (collapsed) render.result = collapsed;
				if (expanded) render.resultExpanded = expanded;
			}
			if (render.call || render.result) renders[block.id] = render;
		}
	}
	return renders;
}
