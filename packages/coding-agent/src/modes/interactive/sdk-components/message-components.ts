import type { AssistantMessage } from "@tau/ai";
import { Container, type MarkdownTheme, type TUI } from "@tau/tui";
import type { MessageRenderer, ToolDefinition, ToolRenderers } from "../../../core/extensions/index.js";
import type { ParsedSkillBlock } from "../../../core/resources/index.js";
import type { BranchSummaryMessage, CompactionSummaryMessage, CustomMessage } from "../../../core/session/index.js";
import { AssistantMessageView } from "../components/assistant-message.js";
import { BashExecutionView } from "../components/bash-execution.js";
import { CustomMessageView } from "../components/custom-message.js";
import { BRANCH_SUMMARY_KIND, compactionSummaryKind, SummaryMessageView } from "../components/summary-message.js";
import { ToolExecutionView, type ToolResultView } from "../components/tool-execution.js";
import { UserMessageView } from "../components/user-message.js";
import { userText } from "../controller/transcript-controller.js";
import { keyHint, keyText } from "../keybindings/key-hints.js";
import { activeTheme } from "../theme/active-theme.js";

/**
 * The transcript's message components under the constructor signatures extensions and SDK hosts know
 * (docs/extensions.md). They draw with the active theme; the Markdown theme, padding, transformer and
 * id arguments are accepted for compatibility.
 */

const timeOf = (timestamp: string | undefined) => (timestamp ? Date.parse(timestamp) : undefined);

/** Interactive-mode component that draws a user message. */
export class UserMessageComponent extends UserMessageView {
	constructor(
		text: string,
		_markdownTheme?: MarkdownTheme,
		_outputPad?: number,
		_markdownTransformers?: readonly unknown[],
		_messageId?: string,
		timestamp?: string,
	) {
		super(activeTheme(), text, undefined, timeOf(timestamp));
	}
}

/**
 * Interactive-mode component that draws an assistant message: its text, tool calls and (unless hidden) its
 * thinking.
 */
export class AssistantMessageComponent extends AssistantMessageView {
	private hideThinking: boolean;
	private hiddenLabel: string;

	constructor(
		message?: AssistantMessage,
		hideThinkingBlock = false,
		_markdownTheme?: MarkdownTheme,
		hiddenThinkingLabel = "Thinking...",
	) {
		super(activeTheme(), { hideThinking: hideThinkingBlock, hiddenThinkingLabel });
		this.hideThinking = hideThinkingBlock;
		this.hiddenLabel = hiddenThinkingLabel;
		if (message) this.updateContent(message);
	}

	override updateContent(message: AssistantMessage, isStreaming = false): void {
		super.updateContent(message, isStreaming);
	}

	setHideThinkingBlock(hide: boolean): void {
		this.hideThinking = hide;
		this.setOptions({ hideThinking: hide, hiddenThinkingLabel: this.hiddenLabel });
	}

	setHiddenThinkingLabel(label: string): void {
		this.hiddenLabel = label;
		this.setOptions({ hideThinking: this.hideThinking, hiddenThinkingLabel: label });
	}
}

/** A custom message: the extension's renderer when given (and it renders one), else the default view. */
export class CustomMessageComponent extends Container {
	constructor(message: CustomMessage<unknown>, customRenderer?: MessageRenderer, _markdownTheme?: MarkdownTheme) {
		super();
		const theme = activeTheme();
		const custom = customRenderer?.(message, { expanded: false, outputPad: 1, keyHint, keyText }, theme);
		this.addChild(
			custom ?? new CustomMessageView(theme, message.customType, userText(message), undefined, message.timestamp),
		);
	}
}

/** Interactive-mode component that draws the summary of an abandoned branch left by `/tree` navigation. */
export class BranchSummaryMessageComponent extends SummaryMessageView {
	constructor(message: BranchSummaryMessage, _markdownTheme?: MarkdownTheme) {
		super(activeTheme(), BRANCH_SUMMARY_KIND, message.summary, undefined, message.timestamp);
	}
}

/** Interactive-mode component that draws a compaction summary in the transcript. */
export class CompactionSummaryMessageComponent extends SummaryMessageView {
	constructor(message: CompactionSummaryMessage, _markdownTheme?: MarkdownTheme) {
		super(activeTheme(), compactionSummaryKind(message.tokensBefore), message.summary, undefined, message.timestamp);
	}
}

/** A `/skill:name` invocation: collapsed to its name, expanded to the skill body and the typed arguments. */
export class SkillInvocationMessageComponent extends SummaryMessageView {
	constructor(skillBlock: ParsedSkillBlock, _markdownTheme?: MarkdownTheme) {
		const body = skillBlock.userMessage ? `${skillBlock.content}\n\n${skillBlock.userMessage}` : skillBlock.content;
		super(activeTheme(), { label: "[skill]", collapsed: skillBlock.name, heading: skillBlock.name }, body);
	}
}

/** Interactive-mode component that draws a user `!` command and its streamed output. */
export class BashExecutionComponent extends BashExecutionView {
	private collected = "";

	constructor(command: string, _ui: TUI, excludeFromContext = false) {
		super(activeTheme(), command, excludeFromContext);
	}

	override appendOutput(chunk: string): void {
		this.collected += chunk;
		super.appendOutput(chunk);
	}

	/** The command finished (`exitCode` undefined: killed); `truncationResult` says whether output was cut. */
	setComplete(
		exitCode: number | undefined,
		cancelled: boolean,
		truncationResult?: { truncated: boolean },
		fullOutputPath?: string,
	): void {
		this.finish({
			output: this.collected,
			exitCode,
			cancelled,
			truncated: truncationResult?.truncated ?? false,
			...(fullOutputPath ? { fullOutputPath } : {}),
		});
	}

	getOutput(): string {
		return this.collected;
	}

	getCommand(): string {
		return this.command;
	}
}

/** Options of `ToolExecutionComponent`: whether images are shown, their width in cells, and the output padding. */
export interface ToolExecutionOptions {
	showImages?: boolean;
	imageWidthCells?: number;
	outputPad?: number;
}

/** A tool call and its result, drawn by the tool's own renderers when it has them. */
export class ToolExecutionComponent extends ToolExecutionView {
	constructor(
		toolName: string,
		toolCallId: string,
		args: unknown,
		options: ToolExecutionOptions | undefined,
		toolDefinition: ToolRenderers | ToolDefinition<any, any, any> | undefined,
		ui: TUI,
		cwd: string,
	) {
		super(activeTheme(), toolName, toolCallId, args, false, {
			renderers: (toolDefinition ?? {}) as ToolRenderers,
			cwd,
			showImages: options?.showImages ?? true,
			outputPad: options?.outputPad ?? 1,
			keyText,
			keyHint,
			requestRender: () => ui.requestRender(),
		});
	}

	override updateResult(result: ToolResultView, isPartial = false): void {
		super.updateResult(result, isPartial);
	}
}
