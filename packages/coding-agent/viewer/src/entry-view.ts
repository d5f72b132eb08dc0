import { type Child, dataImage, h, isRecord, text } from "./dom.js";
import { contentText, messageOf } from "./entry-text.js";
import { renderMarkdown } from "./markdown.js";
import { outputBlock } from "./output-block.js";
import { type Entry, TOOL_INTENT_TYPE } from "./session-model.js";
import { renderToolCall, type ToolViewContext } from "./tool-view.js";

export interface EntryViewContext extends ToolViewContext {
	/** Tool call ids of the assistant messages on the shown branch: their results render under them. */
	branchCallIds: ReadonlySet<string>;
}

const JSON_PREVIEW_CHARS = 20_000;

function timeOf(value: unknown): string {
	if (typeof value !== "string" && typeof value !== "number") return "";
	const date = new Date(value);
	return Number.isNaN(date.getTime()) ? "" : date.toLocaleString();
}

function json(value: unknown): string {
	const shown = JSON.stringify(value, null, 2) ?? "";
	return shown.length > JSON_PREVIEW_CHARS ? `${shown.slice(0, JSON_PREVIEW_CHARS)}\n…` : shown;
}

function jsonDetails(summary: string, value: unknown): HTMLElement {
	return h("details", { class: "json" }, h("summary", {}, summary), h("pre", {}, json(value)));
}

/** The line above an entry: who, when, its label and a link to it. */
function head(entry: Entry, context: EntryViewContext, role: string, ...extra: Child[]): HTMLElement {
	const label = context.model.labels.get(entry.id);
	return h(
		"div",
		{ class: "entry-head" },
		h("span", { class: "role" }, role),
		...extra,
		label ? h("span", { class: "label-badge", title: "Label" }, label) : null,
		h("span", { class: "time" }, timeOf(entry.timestamp)),
		h("a", { class: "permalink", href: `#entry-${encodeURIComponent(entry.id)}`, title: "Link to this entry" }, "#"),
	);
}

function images(content: unknown, alt: string): HTMLElement[] {
	if (!Array.isArray(content)) return [];
	return content
		.filter((block) => isRecord(block) && block.type === "image")
		.map((block) => {
			const image = dataImage(block.mimeType, block.data, alt);
			return image
				? h("div", { class: "image" }, image)
				: h("p", { class: "muted" }, `[image ${text(block.mimeType)}]`);
		});
}

function usageText(usage: unknown): string {
	if (!isRecord(usage)) return "";
	const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
	const parts = [`↑${count(usage.input).toLocaleString("en-US")}`, `↓${count(usage.output).toLocaleString("en-US")}`];
	if (count(usage.cacheRead)) parts.push(`R${count(usage.cacheRead).toLocaleString("en-US")}`);
	if (count(usage.cacheWrite)) parts.push(`W${count(usage.cacheWrite).toLocaleString("en-US")}`);
	const cost = isRecord(usage.cost) ? count(usage.cost.total) : 0;
	if (cost) parts.push(`$${cost.toFixed(4)}`);
	return parts.join(" ");
}

function assistantBody(message: Record<string, unknown>, context: EntryViewContext): Child[] {
	const parts: Child[] = [];
	const content = Array.isArray(message.content) ? message.content : [];
	for (const block of content) {
		if (!isRecord(block)) continue;
		if (block.type === "text" && text(block.text).trim()) parts.push(renderMarkdown(text(block.text)));
		else if (block.type === "thinking") {
			const thinking = text(block.thinking);
			const redacted = block.redacted === true || (!thinking && typeof block.thinkingSignature === "string");
			parts.push(
				h(
					"details",
					{ class: "thinking" },
					h(
						"summary",
						{},
						redacted ? "Thinking (redacted)" : `Thinking: ${thinking.split("\n")[0]!.slice(0, 120)}`,
					),
					redacted ? null : renderMarkdown(thinking),
				),
			);
		} else if (block.type === "toolCall") parts.push(renderToolCall(block, context));
	}
	if (message.stopReason === "error") {
		parts.push(h("div", { class: "notice error" }, `Error: ${text(message.errorMessage) || "the request failed"}`));
	} else if (message.stopReason === "aborted") {
		parts.push(h("div", { class: "notice warning" }, text(message.errorMessage) || "Aborted"));
	} else if (message.stopReason === "length") {
		parts.push(h("div", { class: "notice warning" }, "Stopped: output token limit reached"));
	}
	return parts;
}

function systemBody(message: Record<string, unknown>): Child[] {
	const parts: Child[] = [];
	const content = contentText(message.content);
	if (content.trim()) parts.push(h("pre", { class: "prompt" }, content));
	if (isRecord(message.sections)) {
		for (const [name, value] of Object.entries(message.sections)) {
			parts.push(
				h("div", { class: "section-name" }, value === null ? `Section removed: ${name}` : `Section: ${name}`),
			);
			if (typeof value === "string") parts.push(h("pre", { class: "prompt" }, value));
		}
	}
	const names = (list: unknown) => (Array.isArray(list) ? list.filter(isRecord).map((tool) => text(tool.name)) : []);
	const added = names(message.toolsAdded);
	const removed = names(message.toolsRemoved);
	if (added.length) parts.push(h("div", { class: "muted" }, `Tools added: ${added.join(", ")}`));
	if (removed.length) parts.push(h("div", { class: "muted" }, `Tools removed: ${removed.join(", ")}`));
	return parts;
}

function messageView(entry: Entry, message: Record<string, unknown>, context: EntryViewContext): HTMLElement | null {
	const role = text(message.role);
	switch (role) {
		case "user":
			return h(
				"article",
				{ class: "entry user" },
				head(entry, context, "You"),
				h("div", { class: "user-text" }, contentText(message.content)),
				...images(message.content, "Image from the user"),
			);
		case "assistant": {
			const model = [text(message.provider), text(message.model)].filter(Boolean).join("/");
			return h(
				"article",
				{ class: `entry assistant${message.stopReason === "error" ? " failed" : ""}` },
				head(
					entry,
					context,
					"Assistant",
					h("span", { class: "muted" }, model),
					h("span", { class: "usage" }, usageText(message.usage)),
				),
				...assistantBody(message, context),
			);
		}
		case "toolResult": {
			// Shown with its call; standalone only when the call is not on this branch.
			if (context.branchCallIds.has(text(message.toolCallId))) return null;
			return h(
				"article",
				{ class: "entry tool-result" },
				head(entry, context, `Tool result: ${text(message.toolName)}`),
				outputBlock(contentText(message.content), { className: message.isError === true ? "error-text" : "" }),
				...images(message.content, "Tool result image"),
			);
		}
		case "bashExecution": {
			const exit =
				message.cancelled === true
					? "cancelled"
					: typeof message.exitCode === "number"
						? `exit ${message.exitCode}`
						: "";
			return h(
				"article",
				{ class: "entry bash" },
				head(
					entry,
					context,
					"Shell",
					h("code", {}, `$ ${text(message.command)}`),
					h("span", { class: "badge" }, exit),
				),
				text(message.output) ? outputBlock(text(message.output)) : null,
				message.excludedFromContext === true ? h("div", { class: "muted" }, "Not sent to the model (!!)") : null,
				message.truncated === true ? h("div", { class: "muted" }, "Output truncated") : null,
			);
		}
		case "system": {
			const first = !context.model
				.pathTo(entry.id)
				.some((other) => other !== entry && messageOf(other)?.role === "system");
			return h(
				"article",
				{ class: "entry system" },
				head(entry, context, first ? "System prompt" : "System prompt update"),
				h("details", {}, h("summary", {}, "Show"), ...systemBody(message)),
			);
		}
		case "custom":
			return customView(entry, context, text(message.customType), message.content, message.display !== false);
		default:
			return h(
				"article",
				{ class: "entry meta" },
				head(entry, context, role || "message"),
				jsonDetails("Message", message),
			);
	}
}

function customView(
	entry: Entry,
	context: EntryViewContext,
	type: string,
	content: unknown,
	display: boolean,
): HTMLElement {
	const body = renderMarkdown(contentText(content));
	return h(
		"article",
		{ class: "entry custom" },
		head(entry, context, type || "custom"),
		display ? body : h("details", {}, h("summary", {}, "Sent to the model, hidden in the chat"), body),
	);
}

function summaryView(entry: Entry, context: EntryViewContext, title: string, extra: Child): HTMLElement {
	const details = isRecord(entry.details) ? entry.details : {};
	const files = (key: string) =>
		Array.isArray(details[key]) ? details[key].filter((file) => typeof file === "string") : [];
	const read = files("readFiles");
	const modified = files("modifiedFiles");
	return h(
		"article",
		{ class: "entry summary" },
		head(entry, context, title, extra),
		h("details", { open: true }, h("summary", {}, "Summary"), renderMarkdown(text(entry.summary))),
		read.length ? h("div", { class: "muted" }, `Read: ${read.join(", ")}`) : null,
		modified.length ? h("div", { class: "muted" }, `Modified: ${modified.join(", ")}`) : null,
	);
}

function metaLine(
	entry: Entry,
	context: EntryViewContext,
	title: string,
	body: Child,
	more?: HTMLElement,
): HTMLElement {
	return h(
		"article",
		{ class: "entry meta" },
		head(entry, context, title, h("span", { class: "meta-text" }, body)),
		more ?? null,
	);
}

/** An entry of the branch as a DOM element; null when it shows as part of another (a tool result under its call). */
export function renderEntry(entry: Entry, context: EntryViewContext): HTMLElement | null {
	const message = messageOf(entry);
	if (message) return messageView(entry, message, context);
	switch (entry.type) {
		case "compaction": {
			const tokens =
				typeof entry.tokensBefore === "number"
					? `${entry.tokensBefore.toLocaleString("en-US")} tokens summarized`
					: "";
			return summaryView(entry, context, "Compaction", h("span", { class: "muted" }, tokens));
		}
		case "branch_summary":
			return summaryView(
				entry,
				context,
				"Branch summary",
				h("span", { class: "muted" }, `of the branch at ${text(entry.fromId)}`),
			);
		case "model_change":
			return metaLine(entry, context, "Model", `${text(entry.provider)}/${text(entry.modelId)}`);
		case "thinking_level_change":
			return metaLine(entry, context, "Thinking level", text(entry.thinkingLevel));
		case "label":
			return metaLine(entry, context, "Label", `${text(entry.label) || "(cleared)"} on ${text(entry.targetId)}`);
		case "session_info":
			return metaLine(entry, context, "Session name", text(entry.name));
		case "usage":
			return metaLine(entry, context, "Usage", `${text(entry.kind)} ${text(entry.model)} ${usageText(entry.usage)}`);
		case "context_edit":
			return metaLine(
				entry,
				context,
				"Context edit",
				`${entry.replacement === null ? "hides" : "replaces"} ${text(entry.targetId)} for the model`,
				isRecord(entry.replacement)
					? h("div", { class: "muted" }, contentText(entry.replacement.content))
					: undefined,
			);
		case "custom_message":
			return customView(entry, context, text(entry.customType), entry.content, entry.display !== false);
		case "custom":
			// Tool intents show as the status of their tool calls.
			if (entry.customType === TOOL_INTENT_TYPE) return null;
			return metaLine(entry, context, "Extension state", text(entry.customType), jsonDetails("Data", entry.data));
		default:
			return metaLine(entry, context, "Entry", entry.type, jsonDetails("Raw entry", entry));
	}
}
