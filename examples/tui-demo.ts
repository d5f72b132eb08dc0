/**
 * A small chat-style app built with @tau/tui: an editor with slash-command completion, a transcript
 * where a Markdown answer streams in, and a model picker shown as an overlay select list.
 *
 * Run it in a real terminal: `npx jiti examples/tui-demo.ts` (Node 20.19+)
 * after `npx tsc -b packages/tui`. Tests drive `createDemo` against a virtual terminal.
 */
import {
	CombinedAutocompleteProvider,
	Container,
	Editor,
	type EditorTheme,
	Markdown,
	type MarkdownTheme,
	type OverlayHandle,
	ProcessTerminal,
	SelectList,
	type SelectListTheme,
	Spacer,
	type Terminal,
	Text,
	TuiMainScreen,
} from "@tau/tui";

const dim = (t: string) => `\x1b[2m${t}\x1b[22m`;
const bold = (t: string) => `\x1b[1m${t}\x1b[22m`;
const cyan = (t: string) => `\x1b[36m${t}\x1b[39m`;

const selectTheme: SelectListTheme = {
	selectedPrefix: cyan,
	selectedText: bold,
	description: dim,
	scrollInfo: dim,
	noMatch: dim,
};

const editorTheme: EditorTheme = { borderColor: dim, selectList: selectTheme };

const markdownTheme: MarkdownTheme = {
	heading: cyan,
	link: (t) => `\x1b[4m${t}\x1b[24m`,
	linkUrl: dim,
	code: cyan,
	codeBlock: (t) => t,
	codeBlockBorder: dim,
	quote: dim,
	quoteBorder: dim,
	hr: dim,
	listBullet: cyan,
	bold,
	italic: (t) => `\x1b[3m${t}\x1b[23m`,
	strikethrough: (t) => `\x1b[9m${t}\x1b[29m`,
	underline: (t) => `\x1b[4m${t}\x1b[24m`,
};

export const MODELS = [
	{ value: "faux-small", label: "faux-small", description: "fast scripted model" },
	{ value: "faux-large", label: "faux-large", description: "slow scripted model" },
	{ value: "faux-vision", label: "faux-vision", description: "pretends to see images" },
];

/** The canned answer streamed after every prompt. */
export function demoAnswer(prompt: string): string {
	return [
		`## You said: ${prompt}`,
		"",
		"Here is what a **streamed** answer looks like:",
		"",
		"- lists, `inline code` and [links](https://example.com)",
		"- code blocks:",
		"",
		"```ts",
		'const greeting = "hello";',
		"```",
		"",
		"Done.",
	].join("\n");
}

export interface DemoOptions {
	/** Characters appended per streaming step. */
	chunkSize?: number;
	/** Delay between streaming steps (ms). */
	stepMs?: number;
	/** Called when the user quits with /quit. */
	onQuit?: () => void;
}

/** Builds the demo on any terminal; returns its parts so tests can inspect them. */
export function createDemo(terminal: Terminal, options: DemoOptions = {}) {
	const tui = new TuiMainScreen(terminal);
	const header = new Text(`${bold("tau tui demo")} ${dim("— type a prompt, /model to switch, /quit to exit")}`, 1, 0);
	const transcript = new Container();
	const status = new Text(dim("model: faux-small"), 1, 0);
	const editor = new Editor(tui, editorTheme);
	editor.setAutocompleteProvider(
		new CombinedAutocompleteProvider(
			[
				{ name: "model", description: "Pick a model" },
				{ name: "quit", description: "Exit the demo" },
			],
			process.cwd(),
		),
	);
	tui.addChild(header);
	tui.addChild(new Spacer(1));
	tui.addChild(transcript);
	tui.addChild(status);
	tui.addChild(editor);
	tui.setFocus(editor);

	let streaming: Promise<void> = Promise.resolve();
	let picker: OverlayHandle | undefined;

	const openModelPicker = () => {
		const list = new SelectList(MODELS, 5, selectTheme);
		list.onSelect = (item) => {
			status.setText(dim(`model: ${item.value}`));
			picker?.hide();
			picker = undefined;
			tui.requestRender();
		};
		list.onCancel = () => {
			picker?.hide();
			picker = undefined;
			tui.requestRender();
		};
		picker = tui.showOverlay(list, { width: 40, anchor: "center" });
		return picker;
	};

	const stream = (prompt: string) => {
		const answer = new Markdown("", 1, 0, markdownTheme);
		transcript.addChild(answer);
		transcript.addChild(new Spacer(1));
		const text = demoAnswer(prompt);
		const chunk = options.chunkSize ?? 12;
		streaming = new Promise<void>((resolve) => {
			let shown = 0;
			const step = () => {
				shown = Math.min(text.length, shown + chunk);
				answer.setText(text.slice(0, shown));
				tui.requestRender();
				if (shown < text.length) setTimeout(step, options.stepMs ?? 30);
				else resolve();
			};
			step();
		});
	};

	editor.onSubmit = (value) => {
		if (value === "/model") {
			openModelPicker();
			return;
		}
		if (value === "/quit") {
			options.onQuit?.();
			return;
		}
		if (!value) return;
		editor.addToHistory(value);
		transcript.addChild(new Text(`${cyan("›")} ${value}`, 1, 0));
		stream(value);
		tui.requestRender();
	};

	return { tui, editor, transcript, status, openModelPicker, streaming: () => streaming };
}

// Run in a real terminal when executed directly.
if (import.meta.url === `file://${process.argv[1]}`) {
	const demo = createDemo(new ProcessTerminal(), {
		onQuit: () => {
			demo.tui.stop();
			process.exit(0);
		},
	});
	demo.tui.start();
}
