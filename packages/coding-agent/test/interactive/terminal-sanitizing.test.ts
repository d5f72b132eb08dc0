import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AssistantMessage, fauxAssistantMessage, fauxText, fauxThinking } from "@tau/ai";
import { type Component, Editor, setCapabilityOverrides, visibleWidth } from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";
import { disallowedSequences, fuzzString, seededRandom } from "../../../tui/test/helpers/terminal-safety.js";
import { AssistantMessageView } from "../../src/modes/interactive/components/assistant-message.js";
import { BashExecutionView } from "../../src/modes/interactive/components/bash-execution.js";
import { BorderedNotice } from "../../src/modes/interactive/components/bordered-notice.js";
import { ChangelogView } from "../../src/modes/interactive/components/changelog-view.js";
import { chatNotice } from "../../src/modes/interactive/components/chat-notice.js";
import { CustomMessageView } from "../../src/modes/interactive/components/custom-message.js";
import { FooterView } from "../../src/modes/interactive/components/footer.js";
import { HeaderView } from "../../src/modes/interactive/components/header.js";
import { LinesBlock } from "../../src/modes/interactive/components/lines-block.js";
import { PendingMessagesView } from "../../src/modes/interactive/components/pending-messages.js";
import { StatusLine } from "../../src/modes/interactive/components/status-line.js";
import { compactionSummaryKind, SummaryMessageView } from "../../src/modes/interactive/components/summary-message.js";
import { ToolExecutionView } from "../../src/modes/interactive/components/tool-execution.js";
import { UserMessageView } from "../../src/modes/interactive/components/user-message.js";
import { createAppKeybindings } from "../../src/modes/interactive/keybindings/app-keybindings.js";
import { SelectDialog } from "../../src/modes/interactive/selectors/select-dialog.js";
import { textPrompt } from "../../src/modes/interactive/selectors/text-prompt.js";
import { UiTheme } from "../../src/modes/interactive/theme/ui-theme.js";

const theme = UiTheme.builtin();
const keys = createAppKeybindings(mkdtempSync(join(tmpdir(), "tau-fuzz-keys-"))).manager;

afterEach(() => setCapabilityOverrides({}));

function assistant(text: string, thinking: string, errorMessage: string): AssistantMessage {
	return fauxAssistantMessage([fauxThinking(thinking), fauxText(text)], { stopReason: "error", errorMessage });
}

/** Every transcript, status and dialog renderer, each fed untrusted strings where it takes them. */
function renderers(next: () => string): [string, Component][] {
	const tool = new ToolExecutionView(theme, next(), "call-1", { command: next(), path: next(), x: next() }, true);
	tool.setArgsComplete();
	tool.updateResult({ content: [{ type: "text", text: next() }], isError: false });
	const edit = new ToolExecutionView(theme, "edit", "call-2", { path: next() }, true);
	edit.updateResult({ content: [{ type: "text", text: next() }], details: { diff: next() }, isError: false });
	const bash = new BashExecutionView(theme, next(), false);
	bash.appendOutput(next());
	bash.fail(next());
	const pending = new PendingMessagesView(theme, () => "alt+up");
	pending.setQueues([next()], [next()], [next()]);
	const footer = new FooterView(theme);
	footer.setState({
		cwd: next(),
		home: undefined,
		gitBranch: next(),
		sessionName: next(),
		tokens: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
		cacheHitPercent: undefined,
		cost: 0,
		subscription: false,
		context: { percent: 10, contextWindow: 1000 },
		autoCompaction: true,
		modelId: next(),
		provider: next(),
		reasoning: true,
		thinkingLevel: "high",
		multipleProviders: true,
		statuses: new Map([
			["a", next()],
			["b", next()],
		]),
	});
	const status = new StatusLine({ requestRender: () => {} }, theme);
	status.show(next(), { frames: [next()], intervalMs: 1000 });
	status.clearIndicator();
	status.show(next());
	const summary = new SummaryMessageView(theme, compactionSummaryKind(12_345), next());
	summary.setExpanded(true);
	const header = new HeaderView(theme, keys, { appName: "tau", version: "1", details: () => [next(), next()] });
	header.expanded = true;
	const message = new AssistantMessageView(theme, { hideThinking: false, hiddenThinkingLabel: next() });
	message.updateContent(assistant(next(), next(), next()), true);
	const hidden = new AssistantMessageView(theme, { hideThinking: true, hiddenThinkingLabel: next() });
	hidden.updateContent(assistant(next(), next(), next()), false);
	const editor = new Editor(
		{ requestRender: () => {}, terminal: { rows: 40 } } as never,
		theme.editor((t) => t),
	);
	editor.handleInput(`\x1b[200~${next()}\x1b[201~`);
	editor.setText(next());
	const select = new SelectDialog(
		theme,
		keys,
		{ title: next(), items: [{ value: "v", label: next(), description: next() }] },
		() => {},
	);
	return [
		["AssistantMessageView", message],
		["AssistantMessageView (thinking hidden)", hidden],
		["UserMessageView", new UserMessageView(theme, next())],
		["CustomMessageView", new CustomMessageView(theme, next(), next())],
		["SummaryMessageView", summary],
		["ToolExecutionView", tool],
		["ToolExecutionView (edit diff)", edit],
		["BashExecutionView", bash],
		["PendingMessagesView", pending],
		["chatNotice", chatNotice(theme, "error", next())],
		["BorderedNotice", new BorderedNotice(theme, next())],
		["LinesBlock", new LinesBlock([next(), next()])],
		["ChangelogView", new ChangelogView(theme, [{ title: next(), markdown: next() }])],
		["HeaderView", header],
		["FooterView", footer],
		["StatusLine", status],
		["SelectDialog", select],
		["TextPrompt", textPrompt(theme, keys, next(), { placeholder: next(), prefill: next() }, () => {})],
		["Editor", editor],
	];
}

describe("every interactive renderer with random hostile input", () => {
	it("shows no escape sequence but SGR (and tau's own links) and never exceeds the width", () => {
		const random = seededRandom(2024);
		for (let round = 0; round < 60; round++) {
			setCapabilityOverrides({ hyperlinks: round % 2 === 0 });
			const inputs: string[] = [];
			const next = () => {
				const value = fuzzString(random);
				inputs.push(value);
				return value;
			};
			const width = 2 + Math.floor(random() * 120);
			for (const [name, component] of renderers(next)) {
				for (const line of component.render(width)) {
					const where = `${name} at width ${width} (round ${round}): ${JSON.stringify(inputs)}`;
					// Markdown renders links as OSC 8 when the terminal supports them: tau's own links.
					expect(disallowedSequences(line, { hyperlinks: true }), where).toEqual([]);
					expect(line.includes("\x1b]8;;https://evil.example"), where).toBe(false);
					expect(visibleWidth(line), where).toBeLessThanOrEqual(width);
				}
			}
		}
	});

	it("negative control: an unsanitised component fed the same input would leak sequences", () => {
		const raw: Component = { render: () => ["\x1b]52;c;cHduZWQ=\x07"], invalidate: () => {} };
		expect(disallowedSequences(raw.render(10)[0]!)).not.toEqual([]);
	});

	it("keeps the colours of a user's bash output and drops the rest", () => {
		const bash = new BashExecutionView(theme, "ls --color", false);
		bash.appendOutput("\x1b[34mdir\x1b[0m \x1b]0;title\x07file\n");
		const lines = bash.render(40).join("\n");
		expect(lines).toContain("\x1b[34mdir\x1b[0m");
		expect(lines).not.toContain("\x1b]0;");
	});
});
