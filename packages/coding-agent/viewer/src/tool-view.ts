import type { ViewerToolRender } from "../../src/export/viewer-payload.js";
import {
	callArgsSummary,
	callDuration,
	codemodeNestedCalls,
} from "../../src/modes/interactive/components/codemode-calls.js";
import { editPreview, summarizeToolCall } from "../../src/modes/interactive/components/tool-summary.js";
import { getLanguageFromPath } from "../../src/modes/interactive/theme/languages.js";
import { ansiToDom } from "./ansi.js";
import { highlightedCode } from "./code.js";
import { dataImage, h, isRecord, text } from "./dom.js";
import { contentText, messageOf } from "./entry-text.js";
import { COLLAPSED_LINES, outputBlock } from "./output-block.js";
import type { SessionModel } from "./session-model.js";

export interface ToolViewContext {
	model: SessionModel;
	toolRenders: Readonly<Record<string, ViewerToolRender>>;
}

type Status = { kind: "ok" | "error" | "unknown" | "pending"; label: string };

function statusOf(model: SessionModel, callId: string, result: Record<string, unknown> | undefined): Status {
	if (!result) {
		return model.toolIntents.has(callId)
			? { kind: "unknown", label: "no result recorded: outcome unknown" }
			: { kind: "pending", label: "no result" };
	}
	if (result.isError !== true) return { kind: "ok", label: "ok" };
	const details = result.details;
	if (isRecord(details) && details.interrupted === true)
		return { kind: "unknown", label: "interrupted: outcome unknown" };
	return { kind: "error", label: "error" };
}

function seconds(value: unknown): string | undefined {
	return typeof value === "number" && Number.isFinite(value) ? `${(value / 1000).toFixed(1)}s` : undefined;
}

/** Extension-rendered lines (ANSI), one element per line. */
function renderedLines(lines: readonly string[], className: string): HTMLElement {
	return h("div", { class: `rendered ${className}` }, ...lines.map((line) => h("div", {}, ansiToDom(line), "\u200b")));
}

function titleOf(name: string, args: Record<string, unknown>, render: ViewerToolRender | undefined): HTMLElement {
	if (render?.call) return renderedLines(render.call, "tool-title");
	const summary = summarizeToolCall(name, args);
	return h(
		"div",
		{ class: "tool-title" },
		h("strong", {}, summary.title),
		summary.target !== undefined ? h("span", { class: "tool-target" }, ` ${summary.target}`) : null,
		summary.note
			? h("span", { class: "tool-note" }, summary.target !== undefined ? summary.note : ` ${summary.note}`)
			: null,
	);
}

function diffBlock(diff: string): HTMLElement {
	const pre = h("pre", { class: "diff" });
	for (const line of diff.replace(/\n$/, "").split("\n")) {
		const kind = line.startsWith("+") ? "added" : line.startsWith("-") ? "removed" : "context";
		pre.append(h("span", { class: `diff-${kind}` }, line), "\n");
	}
	return h("div", { class: "collapsible-diff" }, pre);
}

/** What the result shows: the edit diff, written content, or the output text with images. */
function resultBody(
	name: string,
	args: Record<string, unknown>,
	result: Record<string, unknown> | undefined,
): HTMLElement[] {
	const parts: HTMLElement[] = [];
	const isError = result?.isError === true;
	const details = result?.details;
	if (name === "edit" && !isError) {
		const diff = isRecord(details) && typeof details.diff === "string" ? details.diff : editPreview(args);
		if (diff !== undefined) return [diffBlock(diff)];
	}
	if (name === "write" && typeof args.content === "string" && !isError) {
		const language = typeof args.path === "string" ? getLanguageFromPath(args.path) : undefined;
		parts.push(
			h(
				"details",
				{ class: "written" },
				h("summary", {}, "Written content"),
				h("pre", {}, highlightedCode(args.content, language)),
			),
		);
	}
	if (name === "bash" && typeof args.command === "string" && args.command.includes("\n")) {
		parts.push(h("pre", { class: "command" }, highlightedCode(args.command, "bash")));
	}
	if (!result) return parts;
	const output = contentText(result.content);
	if (output.trim()) parts.push(outputBlock(output, { className: isError ? "error-text" : "" }));
	if (Array.isArray(result.content)) {
		for (const block of result.content) {
			if (!isRecord(block) || block.type !== "image") continue;
			const image = dataImage(block.mimeType, block.data, `${name} result image`);
			parts.push(
				image ? h("div", { class: "image" }, image) : h("p", { class: "muted" }, `[image ${text(block.mimeType)}]`),
			);
		}
	}
	return parts;
}

interface CallItem {
	name: string;
	args: string;
	status: string;
	durationMs?: number;
	error?: string;
}

/** One nested call: name, argument summary, outcome and duration, and the first line of its error. */
function callItem(call: CallItem): HTMLElement {
	const status = call.status || "unknown";
	const took = callDuration(typeof call.durationMs === "number" ? call.durationMs : undefined);
	return h(
		"li",
		{ class: `nested-${status.replace(/[^a-z]/g, "")}` },
		h("strong", {}, call.name),
		call.args
			? h("span", { class: "tool-note" }, ` ${call.args.length > 500 ? `${call.args.slice(0, 500)}…` : call.args}`)
			: null,
		" ",
		h("span", { class: "badge" }, status),
		took ? h("span", { class: "muted call-duration" }, ` ${took}`) : null,
		call.error ? h("div", { class: "error-text" }, call.error) : null,
	);
}

/** A list of nested calls; long lists start folded, as long outputs do (Expand all opens them). */
function callList(items: HTMLElement[], note = ""): HTMLElement {
	return h(
		"details",
		{ class: "nested-calls", open: items.length <= COLLAPSED_LINES },
		h("summary", {}, `Nested tool calls: ${items.length}${note}`),
		h("ol", {}, ...items),
	);
}

/** The calls a tool made through codemode (`nestedCalls` on its result), as a collapsed list. */
function nestedCallsBlock(result: Record<string, unknown> | undefined): HTMLElement | null {
	const record = result?.nestedCalls;
	if (!isRecord(record) || !Array.isArray(record.calls) || record.calls.length === 0) return null;
	const items = record.calls.filter(isRecord).map((call) =>
		callItem({
			name: text(call.name),
			args: isRecord(call.arguments)
				? JSON.stringify(call.arguments)
				: typeof call.argumentsBytes === "number"
					? `(${call.argumentsBytes} bytes of arguments not recorded)`
					: "",
			status: text(call.status),
			...(typeof call.durationMs === "number" ? { durationMs: call.durationMs } : {}),
			...(typeof call.error === "string" ? { error: call.error } : {}),
		}),
	);
	return callList(items, record.complete === false ? " (record incomplete)" : "");
}

/**
 * A `codemode` call as the terminal shows it (docs/codemode.md): the script, highlighted, then each
 * call the script made (`details.calls`) with its outcome and duration.
 */
function codemodeBlock(args: Record<string, unknown>, result: Record<string, unknown> | undefined): HTMLElement[] {
	const parts: HTMLElement[] = [];
	const code = typeof args.code === "string" ? args.code.replace(/\s+$/, "") : "";
	if (code) parts.push(h("pre", { class: "command codemode-script" }, highlightedCode(code, "javascript")));
	const calls = codemodeNestedCalls(result?.details);
	if (calls.length > 0) {
		const items = calls.map((call) =>
			callItem({ ...call, args: callArgsSummary(call), error: call.error?.split("\n")[0] }),
		);
		parts.push(callList(items));
	}
	return parts;
}

/** Extension-rendered result: collapsed lines, with a toggle to the expanded rendering when it differs. */
function renderedResult(render: ViewerToolRender): HTMLElement | null {
	if (!render.result) return null;
	const collapsed = render.result;
	const expanded = render.resultExpanded;
	const holder = h("div", { class: "rendered-result" }, renderedLines(collapsed, "tool-output"));
	if (!expanded || expanded.join("\n") === collapsed.join("\n")) return holder;
	holder.classList.add("collapsible", "collapsed");
	const button = h("button", { type: "button", class: "expand-output" }, "Expand");
	const show = (open: boolean) => {
		holder.classList.toggle("collapsed", !open);
		holder.firstElementChild?.replaceWith(renderedLines(open ? expanded : collapsed, "tool-output"));
		button.textContent = open ? "Collapse" : "Expand";
	};
	button.addEventListener("click", () => show(holder.classList.contains("collapsed")));
	holder.addEventListener("viewer:expand", () => show(true));
	holder.append(button);
	return holder;
}

/** One tool call with its result, as the terminal shows it: title, status, diff or output, nested calls. */
export function renderToolCall(call: Record<string, unknown>, context: ToolViewContext): HTMLElement {
	const callId = text(call.id);
	const name = text(call.name) || "tool";
	const args = isRecord(call.arguments) ? call.arguments : {};
	const resultEntry = callId ? context.model.toolResults.get(callId) : undefined;
	const result = resultEntry ? messageOf(resultEntry) : undefined;
	const status = statusOf(context.model, callId, result);
	const render = callId && Object.hasOwn(context.toolRenders, callId) ? context.toolRenders[callId] : undefined;
	const duration = seconds(result?.durationMs);
	const element = h(
		"div",
		{
			class: `tool tool-${status.kind}`,
			"data-tool-call": callId,
			...(resultEntry ? { "data-result-entry": resultEntry.id } : {}),
		},
		h(
			"div",
			{ class: "tool-head" },
			titleOf(name, args, render),
			h("span", { class: `badge status-${status.kind}` }, status.label),
			duration ? h("span", { class: "muted" }, duration) : null,
		),
	);
	const custom = render ? renderedResult(render) : null;
	const codemode = name === "codemode" && !render?.call ? codemodeBlock(args, result) : [];
	element.append(...codemode);
	if (custom) element.append(custom);
	else element.append(...resultBody(name, args, result));
	// A codemode run that listed its own calls already shows them; the core's record would repeat them.
	const nested =
		codemodeNestedCalls(result?.details).length > 0 && codemode.length > 0 ? null : nestedCallsBlock(result);
	if (nested) element.append(nested);
	return element;
}
