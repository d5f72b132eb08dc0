import type { AssistantMessage } from "@tau/ai";
import { type Component, Container, Markdown, Spacer, sanitizeTerminalText, Text } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";
import { type MarkdownSurface, type MarkdownTransform, setStreaming, transformOptions } from "./markdown-transform.js";

export interface AssistantViewOptions {
	hideThinking: boolean;
	hiddenThinkingLabel: string;
}

type Block = { kind: "text"; text: string } | { kind: "thinking"; text: string };

/**
 * Consecutive thinking blocks are shown as one; tool calls render as their own components. Model
 * text is untrusted: it is sanitised where it enters the view.
 */
function displayBlocks(message: AssistantMessage): Block[] {
	const blocks: Block[] = [];
	for (const part of message.content) {
		if (part.type === "text" && part.text.trim() !== "") {
			blocks.push({ kind: "text", text: sanitizeTerminalText(part.text.trim()) });
		} else if (part.type === "thinking" && part.thinking.trim() !== "") {
			const thinking = sanitizeTerminalText(part.thinking.trim());
			const last = blocks[blocks.length - 1];
			if (last?.kind === "thinking") last.text += `\n\n${thinking}`;
			else blocks.push({ kind: "thinking", text: thinking });
		}
	}
	return blocks;
}

/**
 * An assistant reply rebuilt from cumulative snapshots. Markdown instances are reused per block slot
 * so their block cache keeps streaming incremental.
 */
export class AssistantMessageView extends Container {
	private slots: (Markdown | Text)[] = [];
	private slotKinds: Block["kind"][] = [];
	/** What each Markdown slot tells the extensions' transformers. */
	private surfaces: MarkdownSurface[] = [];
	private streaming = false;
	private message: AssistantMessage | undefined;
	/** Whether `message` changed since the components were built. */
	private stale = false;
	/** Shown instead of the message's own abort text (e.g. after retries). */
	abortedText: string | undefined;

	constructor(
		private readonly theme: UiTheme,
		private options: AssistantViewOptions,
		private readonly transform?: MarkdownTransform,
	) {
		super();
	}

	setOptions(options: AssistantViewOptions): void {
		this.options = options;
		this.slots = [];
		this.slotKinds = [];
		this.surfaces = [];
		this.stale = true;
	}

	/** Takes a new snapshot; the components are rebuilt when next drawn (a long history draws few). */
	updateContent(message: AssistantMessage, streaming: boolean): void {
		this.message = message;
		this.streaming = streaming;
		this.stale = true;
	}

	override render(width: number): readonly string[] {
		if (this.stale) this.rebuild();
		return super.render(width);
	}

	private rebuild(): void {
		this.stale = false;
		const message = this.message;
		if (!message) return;
		const blocks = displayBlocks(message);
		const children: Component[] = [];
		blocks.forEach((block, index) => {
			children.push(this.slotFor(index, block));
		});
		const status = this.statusLine(message);
		if (status) children.push(status);
		this.clear();
		if (children.length > 0) this.addChild(new Spacer(1));
		for (const child of children) this.addChild(child);
	}

	private slotFor(index: number, block: Block): Markdown | Text {
		const existing = this.slots[index];
		if (block.kind === "thinking" && this.options.hideThinking) {
			const label = new Text(
				this.theme.italic(this.theme.fg("thinkingText", sanitizeTerminalText(this.options.hiddenThinkingLabel))),
				1,
				0,
			);
			this.slots[index] = label;
			return label;
		}
		const style =
			block.kind === "thinking"
				? { color: (t: string) => this.theme.fg("thinkingText", t), italic: true }
				: undefined;
		const surface = this.surfaces[index];
		if (existing instanceof Markdown && this.slotKinds[index] === block.kind && surface) {
			existing.setText(block.text);
			if (this.transform) setStreaming(surface, existing, this.streaming);
			return existing;
		}
		const fresh: MarkdownSurface = {
			messageType: block.kind === "thinking" ? "assistant-thinking" : "assistant",
			isStreaming: this.streaming,
			...(this.message ? { timestamp: this.message.timestamp } : {}),
		};
		const markdown = new Markdown(
			block.text,
			1,
			0,
			this.theme.markdown(),
			style,
			transformOptions(this.transform, fresh),
		);
		this.slots[index] = markdown;
		this.slotKinds[index] = block.kind;
		this.surfaces[index] = fresh;
		return markdown;
	}

	private statusLine(message: AssistantMessage): Text | undefined {
		if (message.stopReason === "aborted") {
			return new Text(this.theme.fg("error", this.abortedText ?? "Operation aborted"), 1, 0);
		}
		if (message.stopReason === "error") {
			const error = sanitizeTerminalText(message.errorMessage ?? "Unknown error");
			return new Text(this.theme.fg("error", `Error: ${error}`), 1, 0);
		}
		if (message.stopReason === "length") {
			return new Text(
				this.theme.fg("warning", "Response truncated: the model reached its output token limit"),
				1,
				0,
			);
		}
		return undefined;
	}
}
