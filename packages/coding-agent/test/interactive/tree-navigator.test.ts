import { fauxAssistantMessage } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

const CTRL = { u: "\x15", d: "\x04", l: "\x0c", o: "\x0f", x: "\x18" } as const;

async function answer(h: InteractiveHarness, prompt: string, reply: string): Promise<void> {
	h.faux.appendResponses([fauxAssistantMessage(reply)]);
	const since = h.eventCount;
	h.submit(prompt);
	await h.waitForEvent((event) => event.type === "agent_settled", since);
}

/** The tree's rows as shown (between the search field and the key hint). */
async function rows(h: InteractiveHarness): Promise<string[]> {
	const lines = await h.viewport();
	const start = lines.findIndex((line) => line.startsWith("›"));
	const end = lines.findIndex((line, index) => index > start && line.includes("label times"));
	return lines.slice(start + 1, end).map((line) => line.trim());
}

async function openTree(h: InteractiveHarness, filter: string): Promise<void> {
	await h.until(async () => (await h.screen()).includes(`Session tree (filter: ${filter})`));
}

describe("/tree navigator (docs/design/interactive.md#slash-commands)", () => {
	it("starts with the treeFilterMode setting and switches filters with app.tree.filter.* keys", async () => {
		harness = await InteractiveHarness.start({ settings: { treeFilterMode: "user-only" } });
		await answer(harness, "first question", "first answer");
		await answer(harness, "second question", "second answer");
		harness.submit("/tree");
		await openTree(harness, "user-only");
		expect((await rows(harness)).every((row) => /user: /.test(row))).toBe(true);
		harness.terminal.press(CTRL.d);
		await openTree(harness, "default");
		const all = (await rows(harness)).join("\n");
		expect(all).toContain("assistant: first answer");
		expect(all).toContain("• assistant: second answer");
		harness.terminal.press(CTRL.o);
		await openTree(harness, "no-tools");
		harness.terminal.press(CTRL.u);
		await openTree(harness, "user-only");
		harness.terminal.press(KEYS.escape);
	});

	it("edits a label (Shift+L), shows its time (Shift+T) and lists labeled entries only (Ctrl+L)", async () => {
		harness = await InteractiveHarness.start();
		await answer(harness, "first question", "first answer");
		await answer(harness, "second question", "second answer");
		harness.submit("/tree");
		await openTree(harness, "default");
		harness.type("first question");
		await harness.until(async () => (await rows(harness!))[0]?.includes("user: first question") === true);
		harness.terminal.press("L");
		await harness.until(async () => (await harness!.screen()).includes("Empty to remove the label"));
		harness.submit("checkpoint");
		await harness.until(async () => (await harness!.screen()).includes("Label set: checkpoint"));
		await openTree(harness, "default");
		expect((await rows(harness)).join("\n")).toContain("[checkpoint] user: first question");
		harness.terminal.press("T");
		await harness.until(async () =>
			/\[checkpoint\] \d\d:\d\d user: first question/.test((await rows(harness!)).join("\n")),
		);
		harness.terminal.press(CTRL.l);
		await openTree(harness, "labeled-only");
		const labeled = await rows(harness);
		expect(labeled).toHaveLength(1);
		expect(labeled[0]).toContain("user: first question");
		harness.terminal.press(KEYS.escape);
	});

	it("copies the selected message with app.message.copy", async () => {
		harness = await InteractiveHarness.start();
		await answer(harness, "first question", "first answer");
		harness.submit("/tree");
		await openTree(harness, "default");
		harness.type("first question");
		await harness.until(async () => (await rows(harness!))[0]?.includes("user: first question") === true);
		harness.terminal.clearRawOutput();
		harness.terminal.press(CTRL.x);
		await harness.until(async () => (await harness!.screen()).includes("Copied selected message to clipboard"));
		expect(harness.terminal.getRawOutput()).toContain(Buffer.from("first question").toString("base64"));
		harness.terminal.press(KEYS.escape);
	});

	it("folds an entry with Ctrl+Left (or moves to its parent) and unfolds it with Ctrl+Right", async () => {
		harness = await InteractiveHarness.start();
		await answer(harness, "first question", "first answer");
		await answer(harness, "second question", "second answer");
		harness.submit("/tree");
		await openTree(harness, "default");
		const left = "\x1b[1;5D";
		const right = "\x1b[1;5C";
		// The current leaf is selected; it has nothing below it, so Left moves to its parent.
		expect((await rows(harness)).find((row) => row.startsWith("→"))).toContain("assistant: second answer");
		harness.terminal.press(left);
		await harness.until(
			async () =>
				(await rows(harness!)).find((row) => row.startsWith("→"))?.includes("user: second question") === true,
		);
		harness.terminal.press(left);
		await harness.until(async () => (await rows(harness!)).some((row) => /⊞ (• )?user: second question/.test(row)));
		expect((await rows(harness)).join("\n")).not.toContain("second answer");
		harness.terminal.press(right);
		await harness.until(async () => (await rows(harness!)).join("\n").includes("second answer"));
		expect((await rows(harness)).join("\n")).not.toContain("⊞");
		harness.terminal.press(KEYS.escape);
	});
});
