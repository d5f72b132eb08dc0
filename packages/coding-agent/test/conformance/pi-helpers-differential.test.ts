import {
	createSyntheticSourceInfo,
	DEFAULT_COMPACTION_SETTINGS,
	findCutPoint,
	findTurnStartIndex,
	formatDimensionNote,
	formatReadLineRange,
	getLastAssistantUsage,
	parseFrontmatter,
	parseSkillBlock,
	type SessionEntry,
	stripFrontmatter,
	Theme,
} from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { OPTIONAL_THEME_TOKENS, REQUIRED_THEME_TOKENS } from "../../src/core/resources/index.js";
import { PI_MISSING, piInstalled, piModuleUrl, runPiScript } from "../support/pi-reference.js";

/**
 * The pure helpers and the Theme class tau exports under pi's names give pi's answers
 * (docs/pi-compatibility.md): generated inputs run through pi 1.6 and through tau side by side.
 */

const LINE_VALUES: unknown[] = [undefined, null, 0, 1, 7, 2.5, -3, "4", " ", "x", Number.NaN, Number.POSITIVE_INFINITY];

const SKILL_TEXTS = [
	'<skill name="deploy" location="/skills/deploy/SKILL.md">\nReferences are relative to /skills/deploy.\n\nShip it.\n</skill>',
	'<skill name="deploy" location="/skills/deploy/SKILL.md">\nbody\n</skill>\n\nnow please',
	'<skill name="deploy" location="/s">\nbody\n</skill>\n\n   ',
	'<skill name="a" location="b">\n\n</skill>',
	'<skill name="a">\nno location\n</skill>',
	"plain text",
	' <skill name="a" location="b">\nleading space\n</skill>',
];

/** Frontmatter as skills, prompts and agent files write it. */
const FRONTMATTER_TEXTS = [
	"---\nname: deploy\ndescription: Ship it\n---\n\nBody text\n",
	"\uFEFF---\r\nname: x\r\ntools: read, bash\r\n---\r\nBody\r\n",
	"---\nname: 'quoted: colon'\ncount: 3\nratio: 2.5\nenabled: true\nnothing: null\n---\nbody",
	"---\ntools:\n  - read\n  - bash\nmeta:\n  owner: me\n  tags: [a, b]\n---\nbody",
	'---\ndescription: "line one\\nline two"\nmodel: claude-sonnet-4-5\n---\n  padded body  \n',
	"---\ndescription: >\n  folded\n  text\nnotes: |\n  kept\n  lines\n---\nbody",
	"---\n---\nempty frontmatter",
	"---\nname: x\nno closing delimiter",
	"no frontmatter at all\n",
	"  ---\nname: x\n---\nindented opener",
];

/**
 * Broken YAML: `parseFrontmatter` throws in both; tau's `stripFrontmatter` still returns the body
 * where pi's throws (a deliberate difference, docs/pi-compatibility.md).
 */
const BROKEN_FRONTMATTER_TEXTS = ["---\nkey: [unclosed\n---\nbody", "---\nkey: value\n  bad: indent\n---\nbody"];

const SOURCE_OPTIONS = [
	{ source: "sdk" },
	{ source: "local", scope: "user", origin: "package", baseDir: "/base" },
	{ source: "cli", changelogPath: "/c/CHANGELOG.md" },
	{ source: "x", changelogPath: "" },
];

const RESIZED = [
	{
		data: "",
		mimeType: "image/png",
		originalWidth: 4000,
		originalHeight: 3000,
		width: 2000,
		height: 1500,
		wasResized: true,
	},
	{
		data: "",
		mimeType: "image/png",
		originalWidth: 100,
		originalHeight: 50,
		width: 100,
		height: 50,
		wasResized: false,
	},
	{
		data: "",
		mimeType: "image/png",
		originalWidth: 1000,
		originalHeight: 999,
		width: 333,
		height: 333,
		wasResized: true,
	},
];

const usage = (input: number, output = 10) => ({
	input,
	output,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: input + output,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});
let clock = 0;
function entry(id: string, message: Record<string, unknown>): SessionEntry {
	return {
		type: "message",
		id,
		parentId: null,
		timestamp: new Date(clock++).toISOString(),
		message,
	} as unknown as SessionEntry;
}
const user = (id: string, text: string) =>
	entry(id, { role: "user", content: [{ type: "text", text }], timestamp: clock });
const assistant = (id: string, text: string, input: number, stopReason = "stop") =>
	entry(id, {
		role: "assistant",
		content: [{ type: "text", text }],
		api: "anthropic-messages",
		provider: "p",
		model: "m",
		usage: usage(input),
		stopReason,
		timestamp: clock,
	});
const toolResult = (id: string, text: string) =>
	entry(id, {
		role: "toolResult",
		toolCallId: "c1",
		toolName: "read",
		content: [{ type: "text", text }],
		isError: false,
		timestamp: clock,
	});
const long = (n: number) => "word ".repeat(n);
const ENTRIES: SessionEntry[] = [
	user("u1", long(400)),
	assistant("a1", long(300), 900),
	user("u2", long(50)),
	assistant("a2", long(600), 2000),
	toolResult("t1", long(800)),
	assistant("a3", long(100), 3000, "error"),
	user("u3", long(20)),
	assistant("a4", long(700), 0),
];

const THEME_VALUES: Record<string, string | number> = Object.fromEntries(
	[...REQUIRED_THEME_TOKENS, ...Object.keys(OPTIONAL_THEME_TOKENS)].map((token, i) => [
		token,
		i % 3 === 0 ? `#${((i * 0x15a4e3) & 0xffffff).toString(16).padStart(6, "0")}` : i % 3 === 1 ? (i * 7) % 256 : "",
	]),
);
const BG_TOKENS = [
	"selectedBg",
	"searchMatchBg",
	"userMessageBg",
	"customMessageBg",
	"toolPendingBg",
	"toolSuccessBg",
	"toolErrorBg",
];
const FG_TOKENS = Object.keys(THEME_VALUES).filter((token) => !BG_TOKENS.includes(token));

/** Everything a theme produces for the tokens, in one colour mode. */
function themeOutputs(theme: {
	fg(token: string, text: string): string;
	bg(token: string, text: string): string;
	getFgAnsi(token: string): string;
	getBgAnsi(token: string): string;
	bold(text: string): string;
	italic(text: string): string;
	underline(text: string): string;
	inverse(text: string): string;
	strikethrough(text: string): string;
	getColorMode(): string;
	getThinkingBorderColor(level: string): (text: string) => string;
	getBashModeBorderColor(): (text: string) => string;
}): Record<string, unknown> {
	const attempt = (run: () => string) => {
		try {
			return run();
		} catch (error) {
			return `throws: ${(error as Error).message}`;
		}
	};
	return {
		fg: Object.fromEntries(FG_TOKENS.map((token) => [token, theme.fg(token, "x")])),
		bg: Object.fromEntries(BG_TOKENS.map((token) => [token, theme.bg(token, "x")])),
		fgAnsi: FG_TOKENS.map((token) => theme.getFgAnsi(token)),
		bgAnsi: BG_TOKENS.map((token) => theme.getBgAnsi(token)),
		attributes: [
			theme.bold("x"),
			theme.italic("x"),
			theme.underline("x"),
			theme.inverse("x"),
			theme.strikethrough("x"),
		],
		mode: theme.getColorMode(),
		thinking: ["off", "minimal", "low", "medium", "high", "xhigh", "max", "bogus"].map((level) =>
			theme.getThinkingBorderColor(level)("x"),
		),
		bash: theme.getBashModeBorderColor()("x"),
		wrongSlot: [
			attempt(() => theme.fg("selectedBg", "x")),
			attempt(() => theme.bg("accent", "x")),
			attempt(() => theme.fg("nope", "x")),
		],
	};
}

/** A parse result, or that it threw (the messages are each parser's own). */
function frontmatterOutcome(parse: (text: string) => unknown, text: string): unknown {
	try {
		return parse(text);
	} catch {
		return "throws";
	}
}

const PI_SCRIPT = `
const pi = await import(input.module);
const frontmatterOutcome = ${frontmatterOutcome.toString()};
const lineValues = input.lineValues.map((value) => (value && typeof value === "object" ? (value.$ === "undefined" ? undefined : Number(value.$)) : value));
const fg = Object.fromEntries(input.fgTokens.map((token) => [token, input.themeValues[token]]));
const bg = Object.fromEntries(input.bgTokens.map((token) => [token, input.themeValues[token]]));
const themeOutputs = ${themeOutputs.toString()};
const FG_TOKENS = input.fgTokens;
const BG_TOKENS = input.bgTokens;
output = {
	lineRanges: lineValues.flatMap((offset) => lineValues.map((limit) => pi.formatReadLineRange(offset, limit))),
	skillBlocks: input.skillTexts.map((text) => pi.parseSkillBlock(text)),
	frontmatter: [...input.frontmatterTexts, ...input.brokenFrontmatterTexts].map((text) => frontmatterOutcome(pi.parseFrontmatter, text)),
	stripped: input.frontmatterTexts.map((text) => frontmatterOutcome(pi.stripFrontmatter, text)),
	sourceInfos: input.sourceOptions.map((options) => pi.createSyntheticSourceInfo("/some/path", options)),
	dimensionNotes: input.resized.map((result) => pi.formatDimensionNote(result) ?? null),
	lastUsage: [input.entries, input.entries.slice(0, 6), input.entries.slice(0, 1)].map((entries) => pi.getLastAssistantUsage(entries) ?? null),
	turnStarts: input.entries.map((_, i) => pi.findTurnStartIndex(input.entries, i, 0)),
	cutPoints: [1, 100, 500, 1000, 3000, 100000].map((keep) => pi.findCutPoint(input.entries, 0, input.entries.length, keep)),
	compactionDefaults: pi.DEFAULT_COMPACTION_SETTINGS,
	themes: ["truecolor", "256color"].map((mode) => themeOutputs(new pi.Theme(fg, bg, mode, { name: "generated" }))),
};
`;

/** JSON has no undefined, NaN or Infinity: they travel as `{ $: "name" }` and are decoded in pi's script. */
const encodedLineValues = LINE_VALUES.map((value) =>
	typeof value === "number" && !Number.isFinite(value)
		? { $: String(value) }
		: value === undefined
			? { $: "undefined" }
			: value,
);

describe.skipIf(!piInstalled)(`helpers and Theme against pi 1.6 (${piInstalled ? "installed pi" : PI_MISSING})`, () => {
	it("give pi's answers for generated inputs", async () => {
		const input = {
			module: piModuleUrl("pi-coding-agent"),
			lineValues: encodedLineValues,
			skillTexts: SKILL_TEXTS,
			frontmatterTexts: FRONTMATTER_TEXTS,
			brokenFrontmatterTexts: BROKEN_FRONTMATTER_TEXTS,
			sourceOptions: SOURCE_OPTIONS,
			resized: RESIZED,
			entries: ENTRIES,
			themeValues: THEME_VALUES,
			fgTokens: FG_TOKENS,
			bgTokens: BG_TOKENS,
		};
		const pi = await runPiScript(PI_SCRIPT, input, { env: { FORCE_COLOR: "3" } });
		const fg = Object.fromEntries(FG_TOKENS.map((token) => [token, THEME_VALUES[token]]));
		const bg = Object.fromEntries(BG_TOKENS.map((token) => [token, THEME_VALUES[token]]));
		const tau = {
			lineRanges: LINE_VALUES.flatMap((offset) => LINE_VALUES.map((limit) => formatReadLineRange(offset, limit))),
			skillBlocks: SKILL_TEXTS.map((text) => parseSkillBlock(text)),
			frontmatter: [...FRONTMATTER_TEXTS, ...BROKEN_FRONTMATTER_TEXTS].map((text) =>
				frontmatterOutcome(parseFrontmatter, text),
			),
			stripped: FRONTMATTER_TEXTS.map((text) => frontmatterOutcome(stripFrontmatter, text)),
			sourceInfos: SOURCE_OPTIONS.map((options) => createSyntheticSourceInfo("/some/path", options as never)),
			dimensionNotes: RESIZED.map((result) => formatDimensionNote(result) ?? null),
			lastUsage: [ENTRIES, ENTRIES.slice(0, 6), ENTRIES.slice(0, 1)].map(
				(entries) => getLastAssistantUsage(entries) ?? null,
			),
			turnStarts: ENTRIES.map((_, i) => findTurnStartIndex(ENTRIES, i, 0)),
			cutPoints: [1, 100, 500, 1000, 3000, 100000].map((keep) => findCutPoint(ENTRIES, 0, ENTRIES.length, keep)),
			compactionDefaults: DEFAULT_COMPACTION_SETTINGS,
			themes: (["truecolor", "256color"] as const).map((mode) =>
				themeOutputs(new Theme(fg as never, bg as never, mode, { name: "generated" }) as never),
			),
		};
		expect(JSON.parse(JSON.stringify(tau))).toEqual(pi);
		expect(BROKEN_FRONTMATTER_TEXTS.map((text) => stripFrontmatter(text))).toEqual(["body", "body"]);
	}, 120_000);
});
