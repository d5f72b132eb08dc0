import type { Bench } from "../../../scripts/bench/api.js";
import { Container, Editor, Markdown, Text, TuiMainScreen } from "../src/index.js";
import { plain, plainMarkdownTheme, plainSelectListTheme } from "../test/helpers/themes.js";
import { CountingTerminal } from "./counting-terminal.js";

/** A transcript of `lines` lines (messages of 10 lines) whose last line changes every frame. */
async function transcript(ctx: Parameters<Bench>[0], lines: number): Promise<void> {
	const term = new CountingTerminal(120, 40);
	const tui = new TuiMainScreen(term);
	const messages = new Container();
	for (let m = 0; m < lines / 10; m++) {
		const body = Array.from({ length: 10 }, (_, i) => `message ${m} line ${i}: some transcript text`).join("\n");
		messages.addChild(new Text(body, 0, 0));
	}
	const last = new Text("spinner 0", 0, 0);
	messages.addChild(last);
	tui.addChild(messages);
	tui.start();
	tui.renderNow();
	let tick = 0;
	const bytes: number[] = [];
	await ctx.time(
		`main screen frame, ${lines} lines, last line changes`,
		() => {
			last.setText(`spinner ${++tick}`);
			const before = term.bytes;
			tui.renderNow();
			bytes.push(term.bytes - before);
		},
		{ iterations: 200, warmup: 20 },
	);
	ctx.record(`bytes per frame, ${lines} lines`, "bytes", bytes.slice(20));
	tui.stop();
}

const bench: Bench = async (ctx) => {
	for (const lines of [1_000, 10_000, 100_000]) await transcript(ctx, lines);

	// A 2,000-line markdown answer streamed line by line (60 updates/s in the app; here back to back).
	const term = new CountingTerminal(120, 40);
	const tui = new TuiMainScreen(term);
	const md = new Markdown("", 1, 0, plainMarkdownTheme);
	tui.addChild(md);
	tui.start();
	const answer = Array.from({ length: 2000 }, (_, i) =>
		i % 40 === 0 ? `\n## Section ${i / 40}\n` : `Paragraph line ${i} with **bold** and \`code\` words.\n`,
	);
	let text = "";
	let line = 0;
	const cpu: number[] = [];
	await ctx.time(
		"markdown streaming update (2,000-line answer)",
		() => {
			text += answer[line++ % answer.length];
			const start = process.cpuUsage();
			md.setText(text);
			tui.renderNow();
			const used = process.cpuUsage(start);
			cpu.push((used.user + used.system) / 1000);
		},
		{ iterations: 2000, warmup: 0 },
	);
	ctx.record("markdown streaming CPU per update", "ms", cpu);
	tui.stop();

	// Editor keystroke to frame written.
	const editorTerm = new CountingTerminal(100, 40);
	const editorTui = new TuiMainScreen(editorTerm);
	const editor = new Editor(editorTui, {
		borderColor: plain,
		selectList: plainSelectListTheme,
	});
	editorTui.addChild(editor);
	editorTui.setFocus(editor);
	editorTui.start();
	editorTui.renderNow();
	await ctx.time(
		"editor keystroke to frame",
		() => {
			editorTerm.type("a");
			editorTui.renderNow();
		},
		{ iterations: 500, warmup: 50 },
	);
	editorTui.stop();
};

export default bench;
