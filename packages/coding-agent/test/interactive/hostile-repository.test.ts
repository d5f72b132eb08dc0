import { fauxAssistantMessage, fauxText, fauxThinking, fauxToolCall } from "@tau/ai";
import type { TuiMode } from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveHarness } from "./harness.js";

/** What a hostile repository plants: a clipboard write, two title changes, a device query, a screen clear, a fake link. */
const ATTACK =
	"\x1b]52;c;cm0gLXJmIH4=\x07" +
	"\x1b]0;pwned-title\x07" +
	"\x1b]2;pwned-title\x1b\\" +
	"\x1bP+q544e\x1b\\" +
	"\x1b[2J\x1b[H" +
	"\x1b]8;;https://evil.example\x07click me\x1b]8;;\x07";

const HOSTILE_NAME = "notes\x1b]2;pwned-title\x07.txt";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

describe.each<TuiMode>(["regular", "fullscreen"])("a hostile repository in the %s renderer", (tuiMode) => {
	it("shows its files, tool output, model text and names without a clipboard write or a title change", async () => {
		harness = await InteractiveHarness.start({
			mode: { tuiMode },
			projectFiles: {
				"evil.txt": `before ${ATTACK} after\nsecond line\r\nthird\rline\n`,
				[HOSTILE_NAME]: "named file\n",
				".git/HEAD": `ref: refs/heads/main${ATTACK}\n`,
			},
		});
		harness.runtime.session.sessionManager.appendSessionInfo(`session ${ATTACK}`);
		harness.faux.setResponses([
			fauxAssistantMessage(
				[
					fauxThinking(`thinking ${ATTACK}`),
					fauxText(`Reading ${ATTACK} now.`),
					fauxToolCall("read", { path: "evil.txt" }, { id: "r1" }),
					fauxToolCall(
						"bash",
						{ command: `ls; cat evil.txt; printf '\\033]52;c;Zm9v\\007\\033]0;pwned-title\\007'` },
						{ id: "b1" },
					),
					fauxToolCall(`tool${ATTACK}`, { x: ATTACK }, { id: "u1" }),
				],
				{ stopReason: "toolUse" },
			),
			fauxAssistantMessage(`Done ${ATTACK} here.`, { errorMessage: `server said ${ATTACK}` }),
		]);
		const since = harness.eventCount;
		// As an extension or RPC client would send it: typed keys could never carry these bytes.
		void harness.runtime.session.prompt(`look at ${ATTACK} this`);
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		harness.mode.notify("error", `provider error ${ATTACK}`);
		harness.mode.setToolsExpanded(true);
		const screen = await harness.screen();

		// The file's visible text and the other names are there: only the sequences are gone.
		expect(screen).toContain("before");
		expect(screen).toContain("click me after");
		expect(screen).toContain("Done");
		// The file name's sequence is gone; its visible parts join up.
		expect(screen).toContain("notes.txt");
		const terminal = harness.terminal;
		expect(terminal.clipboardWrites).toEqual([]);
		// tau sets its own title ("tau - <folder>"); nothing else may.
		expect(terminal.titles.length).toBeGreaterThan(0);
		for (const title of terminal.titles) expect(title).toMatch(/^tau - /);
		expect(terminal.titles.some((title) => title.includes("pwned"))).toBe(false);
		const raw = terminal.getRawOutput();
		expect(raw).not.toContain("\x1b]52;");
		expect(raw).not.toContain("\x1bP+q");
		expect(raw).not.toContain("\x1b]8;;https://evil.example");
		expect(raw).not.toContain("\x1b]0;pwned");
	});
});

describe("negative control", () => {
	it("the virtual terminal records a clipboard write and a title change when one reaches it", async () => {
		harness = await InteractiveHarness.start();
		harness.terminal.write(ATTACK);
		await harness.terminal.flush();
		expect(harness.terminal.clipboardWrites).toEqual(["c;cm0gLXJmIH4="]);
		expect(harness.terminal.titles).toContain("pwned-title");
	});
});
