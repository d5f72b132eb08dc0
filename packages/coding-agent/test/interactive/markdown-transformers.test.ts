import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage, fauxText, fauxThinking } from "@tau/ai";
import type { ExtensionAPI, ExtensionFactory, MarkdownTransformContext } from "@tau/coding-agent";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type HarnessOptions, InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;
const temporary: string[] = [];

afterEach(async () => {
	await harness?.close();
	harness = undefined;
	vi.unstubAllEnvs();
	for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(factories: ExtensionFactory[], options: HarnessOptions = {}): Promise<InteractiveHarness> {
	harness = await InteractiveHarness.start({ ...options, loader: { extensionFactories: factories } });
	return harness;
}

/** One prompt answered by `reply`, waited for until the run settles. */
async function exchange(h: InteractiveHarness, prompt: string, reply = fauxAssistantMessage("plain answer")) {
	h.faux.setResponses([reply]);
	const since = h.eventCount;
	h.submit(prompt);
	await h.waitForEvent((event) => event.type === "agent_settled", since);
}

/** An installed app package whose changelog `/changelog` shows (hermetic: a temp dir). */
function installChangelog(): void {
	const dir = mkdtempSync(join(tmpdir(), "tau-md-transform-"));
	temporary.push(dir);
	writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "@tau/coding-agent", version: "1.0.0" }));
	writeFileSync(join(dir, "CHANGELOG.md"), "# Changelog\n\n## [1.0.0]\n- shipped the mango release\n");
	vi.stubEnv("TAU_PACKAGE_DIR", dir);
}

/** Upper-cases "mango" on the surfaces it is registered for. */
const shout =
	(messageTypes?: MarkdownTransformContext["messageType"][]): ExtensionFactory =>
	(pi: ExtensionAPI) =>
		pi.registerMarkdownTransformer(
			(markdown) => markdown.replaceAll("mango", "MANGO"),
			messageTypes ? { messageTypes } : undefined,
		);

describe("registerMarkdownTransformer in the interactive transcript", () => {
	it("by default rewrites user, assistant and thinking Markdown only", async () => {
		installChangelog();
		const h = await start([
			shout(),
			(pi) =>
				pi.registerCommand("note", {
					handler: async () => pi.sendMessage({ customType: "note", content: "custom mango", display: true }),
				}),
		]);
		await exchange(
			h,
			"user mango",
			fauxAssistantMessage([fauxThinking("thinking mango"), fauxText("assistant mango")]),
		);
		h.submit("/note");
		h.submit("/changelog");
		await h.until(async () => (await h.screen()).includes("release"));
		const screen = await h.screen();
		expect(screen).toContain("user MANGO");
		expect(screen).toContain("thinking MANGO");
		expect(screen).toContain("assistant MANGO");
		expect(screen).toContain("custom mango");
		expect(screen).toContain("shipped the mango release");
	});

	it("options.messageTypes replaces the defaults: summary, changelog and custom", async () => {
		installChangelog();
		const h = await start(
			[
				shout(["summary", "changelog", "custom"]),
				(pi) =>
					pi.registerCommand("note", {
						handler: async () => pi.sendMessage({ customType: "note", content: "custom mango", display: true }),
					}),
			],
			{ settings: { compaction: { keepRecentTokens: 1 } } },
		);
		await exchange(h, "user mango", fauxAssistantMessage("assistant mango"));
		await exchange(h, "again mango", fauxAssistantMessage("assistant mango again"));
		h.faux.setResponses([
			fauxAssistantMessage("summary of the mango talk"),
			fauxAssistantMessage("summary of the mango talk"),
		]);
		const since = h.eventCount;
		h.submit("/compact");
		await h.waitForEvent((event) => event.type === "compaction_end", since);
		h.terminal.press(KEYS.ctrlO);
		h.submit("/note");
		h.submit("/changelog");
		await h.until(async () => (await h.screen()).includes("release"));
		const screen = await h.screen();
		expect(screen).toContain("[compaction]");
		expect(screen).toContain("summary of the MANGO talk");
		expect(screen).toContain("custom MANGO");
		expect(screen).toContain("[note]");
		expect(screen).toContain("shipped the MANGO release");
		expect(screen).toContain("assistant mango again");
	});

	it("chains in extension load order, each transformer receiving the previous output", async () => {
		const h = await start([
			(pi) => pi.registerMarkdownTransformer((markdown) => markdown.replaceAll("mango", "papaya")),
			(pi) => pi.registerMarkdownTransformer((markdown) => markdown.replaceAll("papaya", "kiwi")),
			(pi) => pi.registerMarkdownTransformer((markdown) => `${markdown} [third]`),
		]);
		await exchange(h, "user mango", fauxAssistantMessage("assistant mango"));
		const screen = await h.screen();
		expect(screen).toContain("user kiwi [third]");
		expect(screen).toContain("assistant kiwi [third]");
		expect(screen).not.toContain("papaya");
	});

	it("a throwing transformer keeps the Markdown so far, the next one still runs, and the error is reported once", async () => {
		const h = await start([
			(pi) => pi.registerMarkdownTransformer((markdown) => markdown.replaceAll("mango", "papaya")),
			(pi) =>
				pi.registerMarkdownTransformer(() => {
					throw new Error("transformer exploded");
				}),
			(pi) => pi.registerMarkdownTransformer((markdown) => `${markdown} [after]`),
		]);
		await exchange(h, "user mango", fauxAssistantMessage("assistant mango"));
		h.terminal.resize(90, 40);
		await exchange(h, "second mango", fauxAssistantMessage("second answer"));
		const screen = await h.screen();
		expect(screen).toContain("user papaya [after]");
		expect(screen).toContain("assistant papaya [after]");
		expect(screen).toContain("second answer [after]");
		expect(screen.match(/Extension error \(markdown_transform\): transformer exploded/g)).toHaveLength(1);
	});

	it("ctx reports streaming, the width available after a resize, and the timestamp; the stored message stays unchanged", async () => {
		const seen: MarkdownTransformContext[] = [];
		const h = await start(
			[
				(pi) =>
					pi.registerMarkdownTransformer(
						(markdown, ctx) => {
							seen.push(ctx);
							return markdown.replace("mango", `MANGO(width ${ctx.availableWidth})`);
						},
						{ messageTypes: ["assistant"] },
					),
			],
			{ persisted: true, columns: 100 },
		);
		// Renders mid-stream, as the terminal would between chunks.
		const off = h.runtime.session.subscribe((event) => {
			if (event.type === "message_update" && event.message.role === "assistant") h.mode.tui.renderNow();
		});
		const answer = `mango ${"and more words ".repeat(8)}end`;
		await exchange(h, "hello", fauxAssistantMessage(answer, { timestamp: 4242 }));
		off();
		expect(seen.some((ctx) => ctx.isStreaming)).toBe(true);
		expect(await h.screen()).toContain("MANGO(width 98)");
		expect(seen.at(-1)).toMatchObject({ messageType: "assistant", isStreaming: false, timestamp: 4242 });

		h.terminal.resize(70, 40);
		expect(await h.screen()).toContain("MANGO(width 68)");
		expect(seen.at(-1)).toMatchObject({ isStreaming: false, availableWidth: 68 });

		const stored = h.runtime.session.messages.find((message) => message.role === "assistant");
		expect(stored).toMatchObject({ content: [{ type: "text", text: answer }] });
		const file = h.runtime.session.sessionManager.getSessionFile();
		expect(file).toBeDefined();
		const persisted = readFileSync(file!, "utf8");
		expect(persisted).toContain(answer);
		expect(persisted).not.toContain("MANGO");
	});

	it("/reload applies the reloaded extensions' transformers to the transcript", async () => {
		let loads = 0;
		const h = await start([
			(pi) => {
				loads++;
				const marker = loads === 1 ? "[first load]" : "[reloaded]";
				pi.registerMarkdownTransformer((markdown) => `${markdown} ${marker}`);
			},
		]);
		await exchange(h, "user mango", fauxAssistantMessage("assistant mango"));
		expect(await h.screen()).toContain("assistant mango [first load]");
		h.submit("/reload");
		await h.until(async () => (await h.screen()).includes("Reloaded"));
		const screen = await h.screen();
		expect(screen).toContain("assistant mango [reloaded]");
		expect(screen).not.toContain("[first load]");
	});
});
