import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ClipboardContent, pathsFromUriList } from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveHarness } from "./harness.js";

const CTRL_V = "\x16";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

/** A harness whose clipboard holds whatever `clipboard.content` is when Ctrl+V is pressed. */
async function withClipboard(): Promise<{ h: InteractiveHarness; clipboard: { content: ClipboardContent | Error } }> {
	const clipboard: { content: ClipboardContent | Error } = { content: {} };
	const h = await InteractiveHarness.start({
		mode: {
			readClipboard: async () => {
				if (clipboard.content instanceof Error) throw clipboard.content;
				return clipboard.content;
			},
		},
	});
	return { h, clipboard };
}

async function paste(h: InteractiveHarness): Promise<void> {
	const before = h.mode.editor.getText();
	h.terminal.press(CTRL_V);
	await h.settleMicrotasks();
	// Nothing else changes the editor meanwhile; the paste has landed once the text moved on.
	await h.until(() => h.mode.editor.getText() !== before);
}

describe("Ctrl+V (app.clipboard.pasteImage)", () => {
	it("inserts copied file paths: one per line, padded with spaces; shell-quoted on one line in bash mode", async () => {
		const { h, clipboard } = await withClipboard();
		harness = h;
		clipboard.content = { files: ["/work/a.txt", "/work/c d.png"] };
		h.type("see");
		await paste(h);
		expect(h.mode.editor.getText()).toBe("see /work/a.txt\n/work/c d.png");

		h.mode.setEditorText("!ls");
		await paste(h);
		expect(h.mode.editor.getText()).toBe("!ls /work/a.txt '/work/c d.png'");
	});

	it("writes a copied image to <tmpdir>/tau-clipboard-<uuid>.<ext> and inserts its path", async () => {
		const { h, clipboard } = await withClipboard();
		harness = h;
		const data = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
		clipboard.content = { image: { data, mimeType: "image/jpeg" }, text: "ignored" };
		await paste(h);
		const path = h.mode.editor.getText();
		const dir = tmpdir().replaceAll("\\", "\\\\").replaceAll(".", "\\.");
		expect(path).toMatch(new RegExp(`^${dir}[/\\\\]tau-clipboard-[0-9a-f-]{36}\\.jpg$`));
		try {
			expect(readFileSync(path)).toEqual(data);
		} finally {
			rmSync(path, { force: true });
		}
	});

	it("pastes plain clipboard text at the cursor", async () => {
		const { h, clipboard } = await withClipboard();
		harness = h;
		clipboard.content = { text: "from the clipboard" };
		h.type("say: ");
		await paste(h);
		expect(h.mode.editor.getText()).toBe("say: from the clipboard");
	});

	it("reports a failure as Failed to paste from clipboard: <message>", async () => {
		const { h, clipboard } = await withClipboard();
		harness = h;
		clipboard.content = new Error("xclip is not installed");
		h.type("kept");
		h.terminal.press(CTRL_V);
		await h.until(async () => (await h.screen()).includes("Failed to paste from clipboard: xclip is not installed"));
		expect(h.mode.editor.getText()).toBe("kept");
	});
});

describe("right click in fullscreen on Windows (docs/design/interactive.md#submission-and-keys)", () => {
	const RIGHT_PRESS = "\x1b[<2;5;2M";
	const RIGHT_RELEASE = "\x1b[<2;5;2m";
	const platform = Object.getOwnPropertyDescriptor(process, "platform")!;
	const termProgram = process.env.TERM_PROGRAM;

	afterEach(() => {
		Object.defineProperty(process, "platform", platform);
		if (termProgram === undefined) delete process.env.TERM_PROGRAM;
		else process.env.TERM_PROGRAM = termProgram;
	});

	it("pastes clipboard text into the editor; elsewhere a right click does nothing", async () => {
		const clipboard: ClipboardContent = { text: "right-click text" };
		harness = await InteractiveHarness.start({
			mode: { tuiMode: "fullscreen", readClipboard: async () => clipboard },
		});
		await harness.screen();
		harness.terminal.press(RIGHT_PRESS);
		harness.terminal.press(RIGHT_RELEASE);
		await harness.settleMicrotasks();
		expect(harness.mode.editor.getText()).toBe("");

		// The renderer asks the process itself whether it runs on Windows outside VS Code.
		Object.defineProperty(process, "platform", { ...platform, value: "win32" });
		delete process.env.TERM_PROGRAM;
		harness.terminal.press(RIGHT_PRESS);
		harness.terminal.press(RIGHT_RELEASE);
		await harness.until(() => harness!.mode.editor.getText() === "right-click text");
	});
});

describe("clipboard helpers", () => {
	it("reads local paths from a text/uri-list", () => {
		expect(
			pathsFromUriList("# copied\r\nfile:///tmp/a%20b.txt\r\nhttps://example.com/x\nfile:///etc/hosts\n"),
		).toEqual([join("/tmp", "a b.txt"), "/etc/hosts"]);
	});
});
