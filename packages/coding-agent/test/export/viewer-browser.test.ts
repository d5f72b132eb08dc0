import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { exportSessionToHtml } from "@tau/coding-agent";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type OpenedPage, openExport } from "./browser.js";
import { CHROMIUM, launchChromium, NO_CHROMIUM_REASON } from "./chromium.js";
import {
	BASH_LINES,
	branchedSession,
	codemodeSession,
	HOSTILE_CALL_ARGS,
	HUGE_LINE_CHARS,
	hostileSession,
	longSession,
} from "./session-fixtures.js";

const describeInBrowser = CHROMIUM ? describe : describe.skip;
if (!CHROMIUM) console.warn(`viewer browser tests skipped: ${NO_CHROMIUM_REASON}`);

let browser: Browser;
const opened: OpenedPage[] = [];
const scratch: string[] = [];

function exportOf(builder: { write(): string }): string {
	const source = builder.write();
	scratch.push(dirname(source));
	return exportSessionToHtml(source, join(dirname(source), "session.html"));
}

async function open(file: string, options: Parameters<typeof openExport>[2] = {}): Promise<OpenedPage> {
	const page = await openExport(browser, file, options);
	opened.push(page);
	return page;
}

describeInBrowser("the HTML export in Chromium", () => {
	beforeAll(async () => {
		browser = await launchChromium();
	});

	afterAll(async () => {
		await browser?.close();
	});

	afterEach(async () => {
		// Every page of every test: nothing logged an error, nothing was requested, no policy tripped.
		for (const { context, trouble, violations } of opened.splice(0)) {
			expect(await violations()).toEqual([]);
			await context.close();
			expect(trouble).toEqual({ consoleErrors: [], requests: [], dialogs: [] });
		}
		for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
	});

	it("opens at the start of the branch the session was on, with tools, thinking, images, the compaction and errors", async () => {
		const { page } = await open(exportOf(branchedSession()));
		const messages = page.locator("#messages");
		await expect(page.title()).resolves.toContain("Fix the parser bug");
		expect(await page.locator("#session-header").innerText()).toContain("/home/ana/src/app");
		// The conversation as the terminal shows it.
		await messages.getByText("Fix the parser bug, see the screenshot").waitFor();
		expect(await messages.locator(".tool-title").allInnerTexts()).toEqual(
			expect.arrayContaining(
				["read src/parser.ts", "$ npm test", "edit src/parser.ts", "make deploy"].map((t) =>
					expect.stringContaining(t),
				),
			),
		);
		expect(await messages.locator("details.thinking summary").first().innerText()).toContain(
			"The parser drops the last token",
		);
		// The image came from the session itself and decoded.
		const image = messages.locator(".entry.user img").first();
		expect(await image.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
		expect(await image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(2);
		// An edit shows its diff.
		expect(await messages.locator(".diff .diff-removed").innerText()).toContain("split(' ')");
		expect(await messages.locator(".diff .diff-added").innerText()).toContain("split(/\\s+/)");
		// Markdown: bold, highlighted code, a table and a web link.
		const answer = messages.locator(".entry.assistant .markdown").filter({ hasText: "Fixed the" });
		expect(await answer.locator("strong").innerText()).toBe("parser");
		expect(await answer.locator(".code-block .hl-syntaxKeyword").first().innerText()).toBe("const");
		expect(await answer.locator("td").allInnerTexts()).toEqual(["split", "ok"]);
		expect(await answer.locator("a").getAttribute("href")).toBe("https://example.com/docs");
		// Codemode's nested calls, the compaction summary, the error and the call without a result.
		expect(await messages.locator(".nested-calls summary").innerText()).toBe("Nested tool calls: 2");
		expect(await messages.locator(".entry.summary").innerText()).toContain("52,000 tokens summarized");
		expect(await messages.locator(".entry.summary .markdown").innerText()).toContain("Fix the parser");
		expect(await messages.locator(".notice.error").innerText()).toContain("429 rate limited");
		expect(await messages.locator(".tool-unknown .badge").innerText()).toContain("outcome unknown");
		// Only the branch the session was on.
		expect(await messages.innerText()).toContain("Tests added for the whitespace case.");
		expect(await messages.innerText()).not.toContain("Rewrote the parser");
		// The system prompt and tools as of this branch.
		expect(await page.locator(".tool-list summary").innerText()).toBe("Tools (2)");
	});

	it("shows a codemode run with its script and each nested call's name, arguments, duration and outcome", async () => {
		const { page } = await open(exportOf(codemodeSession()));
		const tool = page.locator(".tool", { has: page.locator(".codemode-script") });
		// The script, highlighted as code.
		expect(await tool.locator(".codemode-script").innerText()).toContain("await glob({ pattern: '**/*.ts' })");
		expect(await tool.locator(".codemode-script .hl-syntaxKeyword").first().innerText()).toBe("const");
		// One row per nested call, in order, with its outcome and duration; the failure shows its error.
		expect(await tool.locator(".nested-calls summary").innerText()).toBe("Nested tool calls: 3");
		const rows = tool.locator(".nested-calls li");
		expect(await rows.locator("strong").allInnerTexts()).toEqual(["glob", "bash", "read"]);
		expect(await rows.locator(".call-duration").allInnerTexts()).toEqual([" 12ms", " 1.5s", " 3ms"]);
		expect(await rows.locator(".badge").allInnerTexts()).toEqual(["ok", "error", "ok"]);
		expect(await rows.nth(0).innerText()).toContain(`{"pattern":"**/*.ts"}`);
		expect(await rows.nth(1).locator(".error-text").innerText()).toBe("exit code 2");
		// Hostile arguments are the words they are: nothing ran, no element came from them.
		expect(await rows.nth(2).innerText()).toContain(HOSTILE_CALL_ARGS);
		expect(await page.evaluate(() => "__pwned" in window)).toBe(false);
		expect(await page.locator("#messages img, #messages script, #messages [onerror]").count()).toBe(0);
	});

	it("moves to another branch through the tree, and the link names the entry", async () => {
		const { page } = await open(exportOf(branchedSession()));
		const row = page.locator(".tree-row", { hasText: "Instead, rewrite the parser" });
		expect(await row.locator(".tree-label").innerText()).toBe("rewrite");
		await row.click();
		const messages = page.locator("#messages");
		await messages.getByText("Rewrote the parser on this branch.").waitFor();
		expect(await messages.innerText()).not.toContain("Tests added for the whitespace case.");
		// This branch's summary of the other one, an extension's message and an aborted answer.
		expect(
			await messages.locator(".entry.summary", { hasText: "Branch summary" }).locator("strong").innerText(),
		).toBe("added tests");
		expect(await messages.locator(".entry.custom").innerText()).toContain("Deploy after review");
		expect(await messages.locator(".notice.warning").innerText()).toContain("Aborted by the user");
		// The shared start of both branches is still shown above the fork.
		expect(await messages.innerText()).toContain("Fix the parser bug, see the screenshot");
		expect(new URL(page.url()).hash).toBe("#entry-b0000001");
		expect(await page.locator("#entry-b0000001").getAttribute("class")).toContain("target");
		expect(await page.locator(".tree-row.selected").innerText()).toContain("Instead, rewrite the parser");
	});

	it("expands a long tool output that starts collapsed to its last lines, with ANSI colour as HTML colour", async () => {
		const { page } = await open(exportOf(branchedSession()));
		const tool = page.locator(".tool", { hasText: "$ npm test" });
		const output = tool.locator("pre.output");
		expect(await output.innerText()).not.toContain("case 1\n");
		expect(await output.innerText()).toContain("FAIL parser.test.ts");
		const fail = output.locator("span", { hasText: "FAIL" });
		expect(await fail.evaluate((element) => getComputedStyle(element).color)).not.toBe(
			await output.evaluate((element) => getComputedStyle(element).color),
		);
		const button = tool.getByRole("button", { name: `Show all ${BASH_LINES} lines` });
		await button.click();
		expect(await output.innerText()).toContain("PASS case 1\n");
		expect((await output.innerText()).split("\n")).toHaveLength(BASH_LINES);
		await tool.getByRole("button", { name: "Show less" }).click();
		expect(await output.innerText()).not.toContain("case 1\n");
	});

	it("a deep link opens the branch holding the entry and scrolls to it", async () => {
		const { page } = await open(exportOf(branchedSession()), { hash: "#entry-b0000002" });
		const target = page.locator("#entry-b0000002");
		expect(await target.getAttribute("class")).toContain("target");
		expect(await target.innerText()).toContain("Rewrote the parser on this branch.");
		expect(await page.locator("#messages").innerText()).not.toContain("Tests added for the whitespace case.");
		const box = await target.boundingBox();
		expect(box!.y).toBeGreaterThanOrEqual(0);
		expect(box!.y).toBeLessThan(900);
		// A permalink in the page is the same kind of link, and the browser's Back returns to the first one.
		await page.locator("#entry-a0000004 .permalink").click();
		expect(new URL(page.url()).hash).toBe("#entry-a0000004");
		// The viewer marks the entry on `hashchange`, which fires after the URL has changed: wait for it.
		await page.locator("#entry-a0000004.target").waitFor();
		await page.goBack();
		await page.locator("#entry-b0000002.target").waitFor();
		// A link to a tool result marks the tool call that shows it.
		await page.evaluate(() => {
			location.hash = "#entry-a0000008";
		});
		await page.locator(".tool.target", { hasText: "$ npm test" }).waitFor();
		expect(await page.locator("#messages").innerText()).toContain("Tests added for the whitespace case.");
	});

	it("searches entries from the tree and opens a match", async () => {
		const { page } = await open(exportOf(branchedSession()));
		await page.locator("#tree-search").fill("whitespace tests");
		const rows = page.locator(".tree-row");
		expect(await rows.allInnerTexts()).toEqual([expect.stringContaining("Tests added for the whitespace case.")]);
		expect(await page.locator("#tree-status").innerText()).toBe("1 matching entry");
		await page.locator("#tree-search").fill("parser");
		expect(await rows.count()).toBeGreaterThan(3);
		await page.locator("#tree-search").fill("no such words anywhere");
		expect(await rows.count()).toBe(0);
		await page.locator("#tree-search").fill("rewrote");
		await rows.first().click();
		await page.locator("#entry-b0000002.target").waitFor();
	});

	it("filters the tree like /tree: user messages only, labeled only, everything", async () => {
		const { page } = await open(exportOf(branchedSession()));
		const rows = page.locator(".tree-row");
		await page.getByRole("button", { name: "User", exact: true }).click();
		expect(await rows.locator(".tree-kind").allInnerTexts()).toEqual(["user", "user", "user"]);
		await page.getByRole("button", { name: "Labeled" }).click();
		expect(await rows.allInnerTexts()).toEqual([expect.stringContaining("Instead, rewrite the parser")]);
		await page.getByRole("button", { name: "All", exact: true }).click();
		expect(await page.locator("#tree-status").innerText()).toBe("25 of 25 entries");
	});

	it("follows the reader's light or dark preference and switches on request", async () => {
		const file = exportOf(branchedSession());
		const dark = await open(file, { colorScheme: "dark" });
		expect(await dark.page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
		await dark.page.locator("#theme-toggle").click();
		expect(await dark.page.evaluate(() => document.documentElement.dataset.theme)).toBe("light");
		const light = await open(file, { colorScheme: "light" });
		expect(await light.page.evaluate(() => document.documentElement.dataset.theme)).toBe("light");
	});

	it("becomes a drawer on a phone and drops the sidebar when printed", async () => {
		const { page } = await open(exportOf(branchedSession()), { viewport: { width: 390, height: 800 } });
		const sidebar = page.locator("#sidebar");
		const onScreen = async () => ((await sidebar.boundingBox())?.x ?? -1) >= 0;
		expect(await onScreen()).toBe(false);
		await page.locator("#sidebar-toggle").click();
		await page.waitForFunction(() => document.getElementById("sidebar")!.getBoundingClientRect().x >= 0);
		await page.locator(".tree-row", { hasText: "Instead, rewrite the parser" }).click();
		await page.locator("#messages").getByText("Rewrote the parser on this branch.").waitFor();
		expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
		await page.emulateMedia({ media: "print" });
		expect(await sidebar.isVisible()).toBe(false);
	});

	it("shows a hostile session as text: nothing it holds runs, loads or breaks the layout", async () => {
		const { page } = await open(exportOf(hostileSession()), { hash: "#entry-x0000003" });
		// Only the page's own two scripts exist, and nothing the session wrote ran (no dialog, no global).
		expect(await page.evaluate(() => document.scripts.length)).toBe(2);
		expect(await page.evaluate(() => "__pwned" in window)).toBe(false);
		expect(await page.locator("#messages iframe, #messages style, #messages script").count()).toBe(0);
		expect(
			await page.locator("#session-header [onerror], #messages [onerror], [onload], [onmouseover]").count(),
		).toBe(0);
		// The markup shows as the words it is.
		const messages = page.locator("#messages");
		expect(await page.title()).toContain("</title><script>");
		expect(await messages.innerText()).toContain(`window.__pwned = 1; alert("script")</script></style>`);
		expect(await messages.innerText()).toContain(`</code></pre><script>alert('fence')</script>`);
		expect(await page.locator("#session-header").innerText()).toContain(`/tmp/</title><script>alert("cwd")</script>`);
		// Links: script, data and terminal links stay text; a markdown image is a web link, never loaded.
		const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
		expect(hrefs.filter((href) => !href.startsWith("#entry-"))).toEqual(["https://tracker.example/image.png"]);
		expect(await messages.getByText("click me").evaluate((element) => element.tagName)).toBe("SPAN");
		const sources = await page
			.locator("img")
			.evaluateAll((images) => images.map((image) => image.getAttribute("src")));
		expect(sources).toEqual([]);
		// The tool result the link named is marked; its output starts collapsed to its tail and expands.
		const tool = page.locator(".tool.target");
		await tool.locator(".expand-output").click();
		const output = tool.locator("pre.output");
		const shown = await output.innerText();
		expect(shown).toContain("x".repeat(HUGE_LINE_CHARS));
		// Escape sequences leave no control characters behind, and a terminal link to script is text.
		expect(shown).toContain("red numbers");
		expect(shown).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
		expect(await output.getByText("a terminal link").evaluate((element) => element.closest("a"))).toBeNull();
		// The label is text, and the page is still laid out: no sideways scrolling despite the huge lines.
		expect(await page.locator("#entry-x0000001 .label-badge").innerText()).toBe(
			`<b onmouseover="alert('label')">label</b>`,
		);
		await page.getByRole("button", { name: "Expand all" }).click();
		expect(await messages.innerText()).toContain("y".repeat(HUGE_LINE_CHARS));
		// Control characters in output without any escape sequence are dropped too.
		expect(await messages.innerText()).toContain("plain bell output");
		expect(await messages.innerText()).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
		expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
		expect(await page.locator("#content").evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(
			true,
		);
		expect(await page.locator("#sidebar").isVisible()).toBe(true);
	});

	it("renders a 5,000-entry session on demand: a screenful in the DOM, more as the reader scrolls", async () => {
		const { page } = await open(exportOf(longSession(5000)));
		const entries = page.locator("#messages .entry");
		const first = await entries.count();
		expect(first).toBeGreaterThan(5);
		expect(first).toBeLessThan(200);
		expect(await page.locator(".tree-row").count()).toBeLessThan(200);
		expect(await page.locator("#tree-status").innerText()).toBe("5000 of 5000 entries");
		await page.locator("#content").evaluate((element) => {
			element.scrollTop = element.scrollHeight;
		});
		await page.waitForFunction((count) => document.querySelectorAll("#messages .entry").length > count, first);
		// A deep link far down the branch renders around its target, not everything before it.
		await page.evaluate(() => {
			location.hash = "#entry-00000ea6";
		});
		await page.locator("#entry-00000ea6.target").waitFor();
		expect(await page.locator("#entry-00000ea6").innerText()).toContain("Question 1250:");
		expect(await entries.count()).toBeLessThan(300);
	});
});
