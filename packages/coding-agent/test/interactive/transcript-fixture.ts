import { stripTerminalSequences } from "@tau/tui";
import { ChatTranscript } from "../../src/modes/interactive/components/chat-transcript.js";
import { StatusLine } from "../../src/modes/interactive/components/status-line.js";
import {
	TranscriptController,
	type TranscriptHost,
} from "../../src/modes/interactive/controller/transcript-controller.js";
import { UiTheme } from "../../src/modes/interactive/theme/ui-theme.js";

/**
 * A transcript controller over a real chat and status line, with inert host callbacks that a test
 * may override; `text()` renders the chat at `width` columns without escape sequences.
 */
export function transcriptFixture(overrides: Partial<TranscriptHost> = {}, width = 80) {
	const theme = UiTheme.builtin();
	const chat = new ChatTranscript();
	const status = new StatusLine({ requestRender: () => {} }, theme);
	const controller = new TranscriptController({
		theme,
		chat,
		status,
		interruptKey: () => "Escape",
		toolsExpanded: () => false,
		hideThinking: () => false,
		hiddenThinkingLabel: () => "Thinking...",
		refreshPending: () => {},
		refreshFooter: () => {},
		compactionEnded: () => {},
		rebuildChat: () => {},
		settled: () => {},
		requestRender: () => {},
		deferUpdate: (_key, apply) => apply(),
		flushUpdate: () => {},
		setProgress: () => {},
		renderCustomMessage: () => undefined,
		renderCustomEntry: () => undefined,
		toolRendering: () => undefined,
		...overrides,
	});
	const text = () => chat.render(width).map(stripTerminalSequences).join("\n");
	return { controller, chat, status, text };
}
