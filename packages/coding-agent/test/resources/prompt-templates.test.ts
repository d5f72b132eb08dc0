// biome-ignore-all lint/suspicious/noTemplateCurlyInString: template syntax (${1:-x}) is the subject under test.
import { join } from "node:path";
import type { SourceInfo } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	expandPromptTemplate,
	loadPromptTemplates,
	parseCommandArgs,
	substituteArgs,
} from "../../src/core/resources/index.js";
import { resourceDirs, write } from "./helpers.js";

const source: SourceInfo = { path: "", source: "local", scope: "user", origin: "top-level" };

describe("parseCommandArgs", () => {
	it("splits on whitespace and keeps quoted sections together", () => {
		expect(parseCommandArgs(`a  "b c" 'd e'`)).toEqual(["a", "b c", "d e"]);
	});

	it("opens quotes only at the start of an argument", () => {
		expect(parseCommandArgs("don't stop")).toEqual(["don't", "stop"]);
		expect(parseCommandArgs('say"hi there"')).toEqual(['say"hi', 'there"']);
	});

	it("lets text continue after a closing quote", () => {
		expect(parseCommandArgs(`"a b"c d`)).toEqual(["a bc", "d"]);
	});

	it("unescapes only the matching quote inside quotes; other backslashes stay", () => {
		expect(parseCommandArgs(String.raw`"say \"hi\"" 'it\'s' "C:\path\n"`)).toEqual([
			'say "hi"',
			"it's",
			String.raw`C:\path\n`,
		]);
		expect(parseCommandArgs("a\\ b")).toEqual(["a\\", "b"]);
	});

	it("produces empty-string arguments for empty quotes", () => {
		expect(parseCommandArgs(`"" x ''`)).toEqual(["", "x", ""]);
	});

	it("reads an unclosed quote as a literal character", () => {
		expect(parseCommandArgs(`"unbalanced quote here`)).toEqual(['"unbalanced', "quote", "here"]);
		expect(parseCommandArgs(`a 'b "c d" e`)).toEqual(["a", "'b", "c d", "e"]);
	});
});

describe("substituteArgs", () => {
	const args = ["one", "two", "three"];

	it("replaces positional arguments, $0 and out-of-range ones with empty text", () => {
		expect(substituteArgs("$1-$2-$3-$4-[$0]", args)).toBe("one-two-three--[]");
	});

	it("reads $10 as argument ten", () => {
		const ten = Array.from({ length: 10 }, (_, i) => `a${i + 1}`);
		expect(substituteArgs("$10 $1", ten)).toBe("a10 a1");
	});

	it("joins all arguments for $@ and $ARGUMENTS", () => {
		expect(substituteArgs("[$@] [$ARGUMENTS]", args)).toBe("[one two three] [one two three]");
	});

	it("applies defaults when an argument is empty or missing", () => {
		expect(substituteArgs("${1:-x} ${4:-fallback}", args)).toBe("one fallback");
		expect(substituteArgs("${1:-none}", [""])).toBe("none");
		expect(substituteArgs("${@:-nothing} ${ARGUMENTS:-nothing}", [])).toBe("nothing nothing");
		expect(substituteArgs("${@:-nothing}", args)).toBe("one two three");
	});

	it("slices arguments with ${@:N} and ${@:N:L}", () => {
		expect(substituteArgs("${@:2}", args)).toBe("two three");
		expect(substituteArgs("${@:0}", args)).toBe("one two three");
		expect(substituteArgs("${@:1:2}", args)).toBe("one two");
		expect(substituteArgs("${@:3:5}", args)).toBe("three");
	});

	it("leaves other syntax literal", () => {
		expect(substituteArgs("${1} $name ${X:-y} $", args)).toBe("${1} $name ${X:-y} $");
	});

	it("never substitutes inside substituted values", () => {
		expect(substituteArgs("$1 $2", ["$2", "second"])).toBe("$2 second");
		expect(substituteArgs("$@", ["$1", "${@:1}"])).toBe("$1 ${@:1}");
	});
});

describe("prompt templates", () => {
	it("names a template after its file and reads description and argument-hint", () => {
		const { root } = resourceDirs();
		const dir = join(root, "prompts");
		write(
			join(dir, "fix-tests.md"),
			'---\ndescription: Summarize failing tests\nargument-hint: "<test-file> [focus]"\n---\nRun $1. Focus: ${2:-root causes}.\n',
		);
		const { prompts, diagnostics } = loadPromptTemplates([{ path: dir, sourceInfo: { ...source, path: dir } }]);
		expect(diagnostics).toEqual([]);
		expect(prompts).toEqual([
			{
				name: "fix-tests",
				description: "Summarize failing tests",
				argumentHint: "<test-file> [focus]",
				content: "Run $1. Focus: ${2:-root causes}.",
				filePath: join(dir, "fix-tests.md"),
				sourceInfo: { ...source, path: join(dir, "fix-tests.md") },
			},
		]);
		expect(expandPromptTemplate('/fix-tests "a b.test.ts"', prompts)).toBe("Run a b.test.ts. Focus: root causes.");
	});

	it("falls back to the first body line, truncated to 60 characters", () => {
		const { root } = resourceDirs();
		const long = "x".repeat(70);
		write(join(root, "p", "long.md"), `\n\n${long}\nmore`);
		write(join(root, "p", "short.md"), "Short first line\nsecond");
		const { prompts } = loadPromptTemplates([{ path: join(root, "p"), sourceInfo: source }]);
		const byName = Object.fromEntries(prompts.map((prompt) => [prompt.name, prompt]));
		expect(byName.long?.description).toBe(`${"x".repeat(60)}...`);
		expect(byName.long?.content).toBe(`\n\n${long}\nmore`);
		expect(byName.short?.description).toBe("Short first line");
	});

	it("turns a YAML error into a warning naming the file and keeps loading others", () => {
		const { root } = resourceDirs();
		const bad = write(join(root, "p", "bad.md"), '---\ndescription: "unbalanced\n---\nBody');
		write(join(root, "p", "good.md"), "Good");
		const { prompts, diagnostics } = loadPromptTemplates([{ path: join(root, "p"), sourceInfo: source }]);
		expect(prompts.map((prompt) => prompt.name)).toEqual(["good"]);
		expect(diagnostics).toEqual([{ type: "warning", message: expect.stringMatching(/unterminated/), path: bad }]);
	});

	it("scans directories recursively unless only direct children are wanted", () => {
		const { root } = resourceDirs();
		write(join(root, "p", "top.md"), "Top");
		write(join(root, "p", "nested", "deep.md"), "Deep");
		write(join(root, "p", ".hidden", "secret.md"), "Hidden");
		write(join(root, "p", "node_modules", "dep.md"), "Dep");
		const recursive = loadPromptTemplates([{ path: join(root, "p"), sourceInfo: source }]);
		expect(recursive.prompts.map((prompt) => prompt.name).sort()).toEqual(["deep", "top"]);
		const direct = loadPromptTemplates([{ path: join(root, "p"), sourceInfo: source, directChildrenOnly: true }]);
		expect(direct.prompts.map((prompt) => prompt.name)).toEqual(["top"]);
	});

	it("expands only exact template names and leaves other text alone", () => {
		const { root } = resourceDirs();
		write(join(root, "p", "review.md"), "Review $@ carefully");
		const { prompts } = loadPromptTemplates([{ path: join(root, "p"), sourceInfo: source }]);
		expect(expandPromptTemplate("/review a b", prompts)).toBe("Review a b carefully");
		expect(expandPromptTemplate("/review", prompts)).toBe("Review  carefully");
		expect(expandPromptTemplate("/reviewer a", prompts)).toBe("/reviewer a");
		expect(expandPromptTemplate("please /review", prompts)).toBe("please /review");
	});
});
