import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
	createFindTool,
	createGrepTool,
	createLsTool,
	createSearchBinaryLocator,
	type FindOperations,
	type FindToolDetails,
	type GrepToolDetails,
	type LsToolDetails,
	noSearchBinaries,
} from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { FIND_FALLBACK_NOTICE, GREP_FALLBACK_NOTICE, type SearchBinaryLocator } from "../../src/core/tools/index.js";
import { tempDir, textOf } from "./helpers.js";

function tree(files: Record<string, string>): string {
	const root = tempDir("tau-search-");
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), content);
	}
	return root;
}

/** Drops the fallback notice so both backends can be compared. */
function withoutFallbackNotice(text: string): string {
	return text
		.replace(new RegExp(`\\n\\n\\[${escapeRegex(GREP_FALLBACK_NOTICE)}\\]$`), "")
		.replace(new RegExp(`\\n\\n\\[${escapeRegex(FIND_FALLBACK_NOTICE)}\\]$`), "")
		.replace(new RegExp(`\\. (${escapeRegex(GREP_FALLBACK_NOTICE)}|${escapeRegex(FIND_FALLBACK_NOTICE)})\\]$`), "]");
}
function escapeRegex(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const system = createSearchBinaryLocator();
const rgMissing = (await system.locate("rg")).binary ? undefined : "ripgrep (rg) is not on PATH";
const fdMissing = (await system.locate("fd")).binary ? undefined : "fd/fdfind is not on PATH";

interface Backend {
	label: string;
	binaries: SearchBinaryLocator;
	skipReason: string | undefined;
}
const grepBackends: Backend[] = [
	{ label: "built-in grep", binaries: noSearchBinaries, skipReason: undefined },
	{ label: "ripgrep", binaries: system, skipReason: rgMissing },
];
const findBackends: Backend[] = [
	{ label: "built-in find", binaries: noSearchBinaries, skipReason: undefined },
	{ label: "fd", binaries: system, skipReason: fdMissing },
];

const SOURCE = "const x = 1;\nfunction foo() {}\nconst y = 2;\n";

for (const backend of grepBackends) {
	describe.skipIf(backend.skipReason !== undefined)(
		`grep via ${backend.label}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ""}`,
		() => {
			const grep = async (cwd: string, params: Parameters<ReturnType<typeof createGrepTool>["execute"]>[1]) => {
				const result = await createGrepTool(cwd, { binaries: backend.binaries }).execute("c", params);
				return {
					text: withoutFallbackNotice(textOf(result)),
					details: result.details as GrepToolDetails | undefined,
				};
			};

			it("formats matches and context lines with paths relative to the search directory", async () => {
				const root = tree({ "src/a.ts": SOURCE });
				const { text } = await grep(root, { pattern: "foo", context: 1 });
				expect(text).toBe("src/a.ts-1- const x = 1;\nsrc/a.ts:2: function foo() {}\nsrc/a.ts-3- const y = 2;");
			});

			it("uses the basename for a single-file search", async () => {
				const root = tree({ "src/a.ts": SOURCE });
				expect((await grep(root, { pattern: "foo", path: "src/a.ts" })).text).toBe("a.ts:2: function foo() {}");
			});

			it("truncates long lines to 500 characters with a notice", async () => {
				const root = tree({ "long.txt": `match ${"x".repeat(600)}\n` });
				const { text, details } = await grep(root, { pattern: "match" });
				expect(text).toBe(
					`long.txt:1: match ${"x".repeat(494)}... [truncated]\n\n[Some lines truncated to 500 chars. Use read tool to see full lines]`,
				);
				expect(details?.linesTruncated).toBe(true);
			});

			it("stops at the match limit and says how to get more, but not at exactly the limit", async () => {
				const lines = (count: number) => Array.from({ length: count }, (_, i) => `hit ${i + 1}`).join("\n");
				const root = tree({ "many.txt": lines(150), "exact/hundred.txt": lines(100) });
				const many = await grep(root, { pattern: "hit", path: "many.txt" });
				expect(many.text.split("\n\n")[0]?.split("\n")).toHaveLength(100);
				expect(
					many.text.endsWith(
						"many.txt:100: hit 100\n\n[100 matches limit reached. Use limit=200 for more, or refine pattern]",
					),
				).toBe(true);
				expect(many.details?.matchLimitReached).toBe(100);
				const exact = await grep(root, { pattern: "hit", path: "exact" });
				expect(exact.text.split("\n")).toHaveLength(100);
				expect(exact.details).toBeUndefined();
			});

			it("keeps the trailing context of the last match within the limit", async () => {
				const root = tree({ "f.txt": "m1\nafter1\nm2\nafter2\nx\nm3\n" });
				const { text } = await grep(root, { pattern: "^m", context: 1, limit: 2 });
				expect(text).toBe(
					"f.txt:1: m1\nf.txt-2- after1\nf.txt:3: m2\nf.txt-4- after2\n\n[2 matches limit reached. Use limit=4 for more, or refine pattern]",
				);
			});

			it("after the limit, a match inside the last match's trailing context is shown as context (as in Pi)", async () => {
				const root = tree({ "f.txt": "m1\nm2\nafter\nm3\nm4\n" });
				const { text, details } = await grep(root, { pattern: "^m", context: 2, limit: 1 });
				expect(text).toBe(
					"f.txt:1: m1\nf.txt-2- m2\nf.txt-3- after\n\n[1 matches limit reached. Use limit=2 for more, or refine pattern]",
				);
				expect(details?.matchLimitReached).toBe(1);
			});

			it("treats metacharacters literally with literal: true, and honours ignoreCase", async () => {
				const root = tree({ "f.txt": "a.b(c)\naxb(c)\nA.B(C)\n" });
				expect((await grep(root, { pattern: "a.b(c)", literal: true })).text).toBe("f.txt:1: a.b(c)");
				expect((await grep(root, { pattern: "a.b(c)", literal: true, ignoreCase: true })).text).toBe(
					"f.txt:1: a.b(c)\nf.txt:3: A.B(C)",
				);
			});

			it("filters with globs rooted at the search directory", async () => {
				const root = tree({ "src/a.ts": SOURCE, "src/b.js": SOURCE, "pkg/src/c.ts": SOURCE });
				expect((await grep(root, { pattern: "foo", glob: "./src/*.ts" })).text).toBe(
					"src/a.ts:2: function foo() {}",
				);
				const anyDepth = (await grep(root, { pattern: "foo", glob: "*.ts" })).text.split("\n").sort();
				expect(anyDepth).toEqual(["pkg/src/c.ts:2: function foo() {}", "src/a.ts:2: function foo() {}"]);
			});

			it("searches hidden files, skips .git, and respects .gitignore inside a repository", async () => {
				const root = tree({
					".gitignore": "ignored.txt\n",
					"ignored.txt": "needle\n",
					".hidden/h.txt": "needle\n",
					".git/config": "needle\n",
					"kept.txt": "needle\n",
				});
				const found = (await grep(root, { pattern: "needle" })).text.split("\n").sort();
				expect(found).toEqual([".hidden/h.txt:1: needle", "kept.txt:1: needle"]);
			});

			it("reports no matches, missing paths and invalid patterns", async () => {
				const root = tree({ "f.txt": "text\n" });
				expect(await grep(root, { pattern: "absent" })).toEqual({ text: "No matches found", details: undefined });
				await expect(grep(root, { pattern: "x", path: "nope" })).rejects.toThrow(
					`Path not found: ${join(root, "nope")}`,
				);
				await expect(grep(root, { pattern: "(" })).rejects.toThrow(/regex parse error/);
			});
		},
	);
}

describe("grep fallback", () => {
	it("announces that the slower built-in search was used", async () => {
		const root = tree({ "f.txt": "hit\n" });
		const result = await createGrepTool(root, { binaries: noSearchBinaries }).execute("c", { pattern: "hit" });
		expect(textOf(result)).toBe(`f.txt:1: hit\n\n[${GREP_FALLBACK_NOTICE}]`);
	});

	it("stops with Operation aborted when aborted after starting", async () => {
		const root = tree(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`d${i % 10}/f${i}.txt`, "hit\n"])));
		const controller = new AbortController();
		const grep = createGrepTool(root, { binaries: noSearchBinaries });
		const find = createFindTool(root, { binaries: noSearchBinaries });
		const searches = [
			grep.execute("c", { pattern: "hit" }, controller.signal),
			find.execute("c", { pattern: "*" }, controller.signal),
		];
		controller.abort();
		for (const search of searches) await expect(search).rejects.toThrow("Operation aborted");
	});

	it("rejects a pre-aborted call", async () => {
		const root = tree({ "f.txt": "hit\n" });
		await expect(
			createGrepTool(root, { binaries: noSearchBinaries }).execute("c", { pattern: "hit" }, AbortSignal.abort()),
		).rejects.toThrow("Operation aborted");
	});
});

for (const backend of findBackends) {
	describe.skipIf(backend.skipReason !== undefined)(
		`find via ${backend.label}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ""}`,
		() => {
			const find = async (cwd: string, params: Parameters<ReturnType<typeof createFindTool>["execute"]>[1]) => {
				const result = await createFindTool(cwd, { binaries: backend.binaries }).execute("c", params);
				return {
					text: withoutFallbackNotice(textOf(result)),
					details: result.details as FindToolDetails | undefined,
				};
			};
			const layout = { "src/a.ts": "", "src/b.js": "", "pkg/src/x.ts": "", "top.ts": "" };

			it("anchors path patterns at the search directory", async () => {
				const root = tree(layout);
				expect((await find(root, { pattern: "src/*.ts" })).text).toBe("src/a.ts");
				expect((await find(root, { pattern: "./src/*.ts" })).text).toBe("src/a.ts");
				expect((await find(root, { pattern: "**/src/*.ts" })).text).toBe("pkg/src/x.ts\nsrc/a.ts");
			});

			it("matches file names at any depth for patterns without a slash, directories with a trailing slash", async () => {
				const root = tree(layout);
				expect((await find(root, { pattern: "*.ts" })).text).toBe("pkg/src/x.ts\nsrc/a.ts\ntop.ts");
				expect((await find(root, { pattern: "src" })).text).toBe("pkg/src/\nsrc/");
			});

			it("stops at the result limit with a notice", async () => {
				const files = Object.fromEntries(
					Array.from({ length: 1001 }, (_, i) => [`f${String(i).padStart(4, "0")}.txt`, ""]),
				);
				const root = tree(files);
				const { text, details } = await find(root, { pattern: "*.txt" });
				expect(text.split("\n\n")[0]?.split("\n")).toHaveLength(1000);
				expect(text.endsWith("\n\n[1000 results limit reached. Use limit=2000 for more, or refine pattern]")).toBe(
					true,
				);
				expect(details?.resultLimitReached).toBe(1000);
			});

			it("respects .gitignore inside and outside git repositories", async () => {
				const files = {
					".gitignore": "build/\n*.log\n",
					"build/out.ts": "",
					"debug.log": "",
					"keep.ts": "",
					"sub/.gitignore": "!keep.log\n",
					"sub/keep.log": "",
				};
				const plain = tree(files);
				expect((await find(plain, { pattern: "*" })).text).toBe(
					".gitignore\nkeep.ts\nsub/\nsub/.gitignore\nsub/keep.log",
				);
				const repo = tree({ ...files, ".git/HEAD": "ref: refs/heads/main\n" });
				expect((await find(repo, { pattern: "*" })).text).toBe(
					".gitignore\nkeep.ts\nsub/\nsub/.gitignore\nsub/keep.log",
				);
			});

			it("terminates on symlink loops, listing the link itself", async () => {
				const root = tree({ "d/file.txt": "" });
				symlinkSync(".", join(root, "d", "loop"));
				symlinkSync(join(root, "d"), join(root, "d", "back"));
				expect((await find(root, { pattern: "*" })).text).toBe("d/\nd/back\nd/file.txt\nd/loop");
			});

			it("reports missing paths and empty results", async () => {
				const root = tree(layout);
				await expect(find(root, { pattern: "*", path: "nope" })).rejects.toThrow(
					`Path not found: ${join(root, "nope")}`,
				);
				expect((await find(root, { pattern: "*.rs" })).text).toBe("No files found matching pattern");
			});
		},
	);
}

describe("find with custom operations", () => {
	it("passes the ignore list and limit + 1 to glob and relativizes the results", async () => {
		const calls: unknown[] = [];
		const ops: FindOperations = {
			exists: () => true,
			glob: (pattern, cwd, options) => {
				calls.push({ pattern, cwd, options });
				return ["/remote/src/a.ts", "/remote/src/b.ts", "/remote/dir/"];
			},
		};
		const result = await createFindTool("/remote", { operations: ops }).execute("c", { pattern: "**/*", limit: 2 });
		expect(calls).toEqual([
			{ pattern: "**/*", cwd: "/remote", options: { ignore: ["**/node_modules/**", "**/.git/**"], limit: 3 } },
		]);
		expect(textOf(result)).toBe("src/a.ts\nsrc/b.ts\n\n[2 results limit reached]");
		await expect(
			createFindTool("/remote", { operations: { ...ops, exists: () => false } }).execute("c", { pattern: "*" }),
		).rejects.toThrow("Path not found: /remote");
	});
});

describe("grep and find: both backends agree", () => {
	const skipReason = rgMissing ?? fdMissing;
	it.skipIf(skipReason !== undefined)(
		`give the same results on a mixed tree${skipReason ? ` (skipped: ${skipReason})` : ""}`,
		async () => {
			const root = tree({
				".gitignore": "dist/\n*.tmp\n",
				".git/HEAD": "ref\n",
				"dist/bundle.js": "needle\n",
				"scratch.tmp": "needle\n",
				"src/index.ts": "import x\nneedle one\n\tneedle two\r\n",
				"src/deep/nested/util.ts": "NEEDLE upper\nneedle lower\n",
				".config/settings.json": '{"needle": true}\n',
				"docs/readme.md": "no match here\n",
				"bin.dat": "needle\u0000binary\n",
			});
			const grepBoth = async (params: {
				pattern: string;
				ignoreCase?: boolean;
				glob?: string;
				context?: number;
			}) => {
				const texts = [];
				for (const binaries of [noSearchBinaries, system]) {
					const result = await createGrepTool(root, { binaries }).execute("c", params);
					texts.push(withoutFallbackNotice(textOf(result)).split("\n").sort());
				}
				return texts;
			};
			for (const params of [
				{ pattern: "needle" },
				{ pattern: "needle", ignoreCase: true },
				{ pattern: "needle", glob: "src/**/*.ts" },
				{ pattern: "one", context: 1 },
			]) {
				const [builtIn, ripgrep] = await grepBoth(params);
				expect(builtIn, JSON.stringify(params)).toEqual(ripgrep);
			}
			for (const pattern of ["*", "*.ts", "src/**", "**/nested/*.ts", "*.JSON"]) {
				const outputs = [];
				for (const binaries of [noSearchBinaries, system]) {
					const result = await createFindTool(root, { binaries }).execute("c", { pattern });
					outputs.push(withoutFallbackNotice(textOf(result)));
				}
				expect(outputs[0], pattern).toBe(outputs[1]);
			}
		},
	);
});

describe("ls", () => {
	it("lists entries sorted case-insensitively, marking directories and including dotfiles", async () => {
		const root = tree({ "b.txt": "", "A.txt": "", ".env": "", "sub/x": "", "C/y": "" });
		const result = await createLsTool(root).execute("c", {});
		expect(textOf(result)).toBe(".env\nA.txt\nb.txt\nC/\nsub/");
		expect(result.details).toBeUndefined();
	});

	it("says when a directory is empty, missing or not a directory", async () => {
		const root = tree({ "file.txt": "" });
		mkdirSync(join(root, "empty"));
		const ls = createLsTool(root);
		expect(textOf(await ls.execute("c", { path: "empty" }))).toBe("(empty directory)");
		await expect(ls.execute("c", { path: "missing" })).rejects.toThrow(`Path not found: ${join(root, "missing")}`);
		await expect(ls.execute("c", { path: "file.txt" })).rejects.toThrow(`Not a directory: ${join(root, "file.txt")}`);
	});

	it("stops at the entry limit with a notice that doubles it", async () => {
		const root = tree({ a: "", b: "", c: "" });
		const result = await createLsTool(root).execute("c", { limit: 2 });
		expect(textOf(result)).toBe("a\nb\n\n[2 entries limit reached. Use limit=4 for more]");
		expect((result.details as LsToolDetails).entryLimitReached).toBe(2);
	});

	it("skips entries that cannot be stat'ed, such as dangling links", async () => {
		const root = tree({ real: "" });
		symlinkSync(join(root, "gone"), join(root, "dangling"));
		expect(textOf(await createLsTool(root).execute("c", {}))).toBe("real");
	});
});
