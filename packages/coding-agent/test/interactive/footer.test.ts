import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import { stripTerminalSequences } from "@tau/tui";
import { describe, expect, it } from "vitest";
import { builtinTheme } from "../../src/core/resources/themes/builtin-theme.js";
import { type FooterState, FooterView, formatTokens } from "../../src/modes/interactive/components/footer.js";
import { readGitBranch } from "../../src/modes/interactive/controller/footer-state.js";
import { InteractiveHarness } from "./harness.js";

function state(overrides: Partial<FooterState> = {}): FooterState {
	return {
		cwd: "/home/ada/code/tau",
		home: "/home/ada",
		gitBranch: "main",
		sessionName: "refactor",
		tokens: { input: 12345, output: 2100, cacheRead: 0, cacheWrite: 0 },
		cacheHitPercent: undefined,
		cost: 0.04567,
		subscription: false,
		context: { percent: 42.123, contextWindow: 200000 },
		autoCompaction: true,
		modelId: "claude-x",
		provider: "anthropic",
		reasoning: true,
		thinkingLevel: "medium",
		multipleProviders: false,
		statuses: new Map(),
		...overrides,
	};
}

function render(s: FooterState, width = 100): string[] {
	const view = new FooterView(builtinTheme());
	view.setState(s);
	return [...view.render(width)];
}

describe("footer", () => {
	it("shows ~-relative cwd, branch, name, token counters, cost, context and model with thinking level", () => {
		const [location, usage] = render(state()).map(stripTerminalSequences);
		expect(location).toBe("~/code/tau (main) • refactor");
		expect(usage).toMatch(/^↑12k ↓2\.1k \$0\.046 42\.1%\/200k \(auto\)\s{2,}claude-x • medium$/);
	});

	it("a refresh takes its state when the footer is next drawn: many refreshes between frames cost one", () => {
		const view = new FooterView(builtinTheme());
		let computed = 0;
		for (let i = 1; i <= 300; i++)
			view.refresh(() => {
				computed++;
				return state({ sessionName: `name ${i}` });
			});
		expect(computed).toBe(0);
		expect(stripTerminalSequences(view.render(100)[0]!)).toBe("~/code/tau (main) • name 300");
		view.render(100);
		expect(computed).toBe(1);
	});

	it("formats token counts by magnitude", () => {
		expect([999, 1234, 45678, 1234567, 12345678].map(formatTokens)).toEqual(["999", "1.2k", "46k", "1.2M", "12M"]);
	});

	it("colours context above 90% with the error colour and above 70% with the warning colour", () => {
		const theme = builtinTheme();
		const high = render(state({ context: { percent: 95.5, contextWindow: 200000 } }))[1]!;
		expect(high).toContain(theme.fg("error", "95.5%/200k (auto)"));
		const mid = render(state({ context: { percent: 75, contextWindow: 200000 } }))[1]!;
		expect(mid).toContain(theme.fg("warning", "75.0%/200k (auto)"));
		const low = render(state({ context: { percent: 10, contextWindow: 200000 } }))[1]!;
		expect(low).not.toContain(theme.fg("error", "10.0%/200k (auto)"));
	});

	it("shows ? after compaction, thinking off, the provider when several exist, and extension statuses", () => {
		const lines = render(
			state({
				context: { percent: null, contextWindow: 200000 },
				autoCompaction: false,
				thinkingLevel: "off",
				multipleProviders: true,
				statuses: new Map([
					["b", "second\nline"],
					["a", "first"],
				]),
			}),
		).map(stripTerminalSequences);
		expect(lines[1]).toMatch(/ \?\/200k\s+\(anthropic\) claude-x • thinking off$/);
		expect(lines[2]).toBe("first second line");
	});

	it("shows cache reads and writes, the latest hit rate and a subscription marker", () => {
		const usage = render(
			state({
				tokens: { input: 500, output: 20, cacheRead: 40000, cacheWrite: 1200 },
				cacheHitPercent: 97.2,
				cost: 0,
				subscription: true,
			}),
		).map(stripTerminalSequences)[1]!;
		expect(usage).toMatch(
			/^↑500 ↓20 R40k W1\.2k CH97% \$0\.000 \(sub\) 42\.1%\/200k \(auto\)\s{2,}claude-x • medium$/,
		);
		const free = render(state({ cost: 0 })).map(stripTerminalSequences)[1]!;
		expect(free).not.toContain("$");
	});

	it("under a virtual model shows the model the request was routed to, with its level", () => {
		const usage = render(state({ modelId: "auto", routed: { modelId: "claude-y", thinkingLevel: "high" } })).map(
			stripTerminalSequences,
		)[1]!;
		expect(usage).toMatch(/\s{2}auto • medium → claude-y • high$/);
	});

	it("truncates the location with a dim ... and drops the provider prefix before the model when space runs out", () => {
		const theme = builtinTheme();
		const narrow = render(state({ multipleProviders: true }), 44);
		expect(render(state(), 20)[0]).toContain(theme.dim("..."));
		const usage = stripTerminalSequences(narrow[1]!);
		expect(usage).not.toContain("(anthropic)");
		expect(usage).toMatch(/42\.1%\/200k \(auto\)\s{2,}\S/);
		const wide = stripTerminalSequences(render(state({ multipleProviders: true }), 100)[1]!);
		expect(wide).toContain("(anthropic) claude-x");
	});

	it("marks the cost with (sub) once the model's provider is signed in with a subscription", async () => {
		const harness = await InteractiveHarness.start();
		try {
			const usageLine = async () => (await harness.viewport()).find((line) => line.includes("faux-1")) ?? "";
			expect(await usageLine()).not.toContain("(sub)");
			await harness.runtime.session.modelRuntime.credentials.modify("faux", async () => ({
				type: "oauth",
				access: "a",
				refresh: "r",
				expires: Date.now() + 3_600_000,
			}));
			harness.submit("/name subscribed");
			await harness.until(async () => (await usageLine()).includes("$0.000 (sub)"));
		} finally {
			await harness.close();
		}
	});

	it("totals cover every entry of the session file, not only the current branch", async () => {
		const harness = await InteractiveHarness.start({ settings: { branchSummary: { skipPrompt: true } } });
		try {
			const output = async () => /↓(\d+)/.exec((await harness.viewport()).join("\n"))?.[1];
			for (const [prompt, reply] of [
				["first question", "a fairly long first answer with several words"],
				["second question", "another long answer with even more words in it"],
			]) {
				harness.faux.appendResponses([fauxAssistantMessage(reply!)]);
				const since = harness.eventCount;
				harness.submit(prompt!);
				await harness.waitForEvent((event) => event.type === "agent_settled", since);
			}
			const before = await output();
			expect(before).toBeDefined();
			harness.submit("/tree");
			await harness.until(async () => (await harness.screen()).includes("Session tree"));
			harness.type("user: first question");
			harness.terminal.press("\r");
			await harness.until(() => harness.mode.editor.getText() === "first question");
			expect(harness.runtime.session.messages.filter((m) => m.role === "assistant")).toHaveLength(0);
			expect(await output()).toBe(before);
		} finally {
			await harness.close();
		}
	});

	it("reads the git branch from the repository above the cwd", () => {
		const root = mkdtempSync(join(tmpdir(), "tau-footer-"));
		mkdirSync(join(root, ".git"));
		writeFileSync(join(root, ".git", "HEAD"), "ref: refs/heads/feature/x\n");
		mkdirSync(join(root, "src", "deep"), { recursive: true });
		expect(readGitBranch(join(root, "src", "deep"))).toBe("feature/x");
	});
});
