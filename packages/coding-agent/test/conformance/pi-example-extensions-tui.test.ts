import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveHarness, KEYS } from "../interactive/harness.js";
import { PI_MISSING, PI_PACKAGE_DIR, piInstalled } from "../support/pi-reference.js";

/**
 * Pi 1.6's example extensions that draw with the theme and footer data, loaded from the installed
 * package into tau's interactive mode: none reports an extension error at start or during a turn
 * (docs/pi-compatibility.md).
 */

const example = (name: string) => join(PI_PACKAGE_DIR, "examples", "extensions", name);

let harness: InteractiveHarness | undefined;
afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

async function startWith(name: string): Promise<InteractiveHarness> {
	harness = await InteractiveHarness.start({ loader: { additionalExtensionPaths: [example(name)] } });
	return harness;
}

async function expectNoExtensionError(h: InteractiveHarness): Promise<void> {
	expect(await h.screen()).not.toMatch(/Extension error|Error:/);
}

describe.skipIf(!piInstalled)(
	`pi 1.6 example extensions in the TUI (${piInstalled ? "installed pi" : PI_MISSING})`,
	() => {
		it("custom-header replaces the header at start, and its command restores the built-in one", async () => {
			const h = await startWith("custom-header.ts");
			await h.until(async () => (await h.screen()).includes("shitty coding agent"));
			await h.answer("hello", "hi there");
			await expectNoExtensionError(h);
			h.submit("/builtin-header");
			await h.until(async () => (await h.screen()).includes("Built-in header restored"));
			expect((await h.viewport()).join("\n")).not.toContain("shitty coding agent");
		});

		it("status-line sets its themed status on every turn", async () => {
			const h = await startWith("status-line.ts");
			await h.until(async () => (await h.viewport()).join("\n").includes("Ready"));
			await h.answer("first", "one");
			expect((await h.viewport()).join("\n")).toContain("✓ Turn 1 complete");
			await h.answer("second", "two");
			expect((await h.viewport()).join("\n")).toContain("✓ Turn 2 complete");
			await expectNoExtensionError(h);
		});

		it("custom-footer draws with the footer data it is given", async () => {
			const h = await startWith("custom-footer.ts");
			h.submit("/footer");
			await h.until(async () => (await h.screen()).includes("Custom footer enabled"));
			const footer = () => h.viewport().then((lines) => lines.find((line) => line.includes("↑")) ?? "");
			expect(await footer()).toMatch(/↑0 ↓0 \$0\.000 +\S/);
			await h.answer("hello", "hi");
			expect(await footer()).not.toMatch(/↑0 ↓0/);
			await expectNoExtensionError(h);
		});

		it("question asks with its own themed component mid-run and returns the choice", async () => {
			const h = await startWith("question.ts");
			h.faux.setResponses([
				fauxAssistantMessage(
					[fauxToolCall("question", { question: "Which one?", options: [{ label: "Alpha" }, { label: "Beta" }] })],
					{ stopReason: "toolUse" },
				),
				fauxAssistantMessage("noted"),
			]);
			const since = h.eventCount;
			h.submit("ask me");
			await h.until(async () => (await h.screen()).includes("Which one?"));
			h.terminal.press(KEYS.enter);
			await h.waitForEvent((event) => event.type === "agent_settled", since);
			const result = h.runtime.session.messages.find((message) => message.role === "toolResult");
			expect(JSON.stringify(result)).toContain("Alpha");
			await expectNoExtensionError(h);
		});
	},
);
