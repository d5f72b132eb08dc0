import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
	findBrokenCitations,
	findBrokenLinks,
	pageAnchors,
	proseOf,
} from "../../../../scripts/check-doc-citations.mjs";
import { REPO_ROOT } from "../e2e/harness.js";

const roots: string[] = [];
afterEach(() => {
	for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A repository of the given files (path → content) in a temp dir. */
function repo(files: Record<string, string>): string {
	const root = mkdtempSync(join(tmpdir(), "tau-citations-"));
	roots.push(root);
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), content);
	}
	return root;
}

const DESIGN_PAGE = "# Design\n\n## Session selection\n\ntext\n\n## Exit\n\n```md\n## Not a heading\n```\n";

describe("doc citations in source comments (scripts/check-doc-citations.mjs)", () => {
	it("every citation in this repository names a page and a section that exist", () => {
		expect(findBrokenCitations(REPO_ROOT)).toEqual([]);
	});

	it("accepts a comment that cites an existing page and heading", () => {
		const root = repo({
			"docs/design/cli.md": DESIGN_PAGE,
			"packages/x/src/a.ts":
				"/** Picks the session (docs/design/cli.md#session-selection). */\nexport const a = 1;\n",
		});
		expect(findBrokenCitations(root)).toEqual([]);
	});

	it("reports a missing page, a missing section and a section of an outside document", () => {
		const root = repo({
			"docs/design/cli.md": DESIGN_PAGE,
			"packages/x/src/a.ts": [
				"// see docs/design/missing.md",
				" * the tree (docs/design/cli.md#not-a-heading)",
				"/** Startup (cli-modes.md §4.2). */",
				// Built so that this file's own test titles do not carry the broken citation.
				`${"describe"}("exit (docs/design/cli.md#exits)", () => {});`,
			].join("\n"),
		});
		expect(findBrokenCitations(root)).toEqual([
			"packages/x/src/a.ts:1: cites docs/design/missing.md, which does not exist",
			"packages/x/src/a.ts:2: cites docs/design/cli.md#not-a-heading, which is not a heading of that page",
			'packages/x/src/a.ts:3: cites "cli-modes.md §4", a document outside the repository',
			"packages/x/src/a.ts:4: cites docs/design/cli.md#exits, which is not a heading of that page",
		]);
	});

	it("allows RFC sections and leaves paths in code alone", () => {
		const root = repo({
			"packages/x/src/a.ts": [
				"/** An OAuth error (RFC 6749 §5.2). */",
				'const fixture = join(dir, "docs/readme.md");',
			].join("\n"),
		});
		expect(findBrokenCitations(root)).toEqual([]);
		const line = `const fixture = join(dir, "docs/readme.md"); ${"//"} the fixture`;
		expect(proseOf(line)).toBe(" the fixture");
	});

	it("forms anchors as GitHub does, numbering repeated headings", () => {
		const anchors = pageAnchors("# `tau config` write rules\n## 6. Extensions inline\n## Keys\n## Keys\n");
		expect([...anchors]).toEqual(["tau-config-write-rules", "6-extensions-inline", "keys", "keys-1"]);
	});

	it("checks the relative links of the repository's Markdown pages too", () => {
		expect(findBrokenLinks(REPO_ROOT)).toEqual([]);
		const root = repo({
			"docs/design/cli.md": DESIGN_PAGE,
			"ARCHITECTURE.md": "[ok](docs/design/cli.md#exit) [web](https://example.test/x.md) [gone](docs/gone.md)\n",
			"docs/design/README.md": "[here](#design) [bad](cli.md#startup)\n# Design\n",
		});
		expect(findBrokenLinks(root)).toEqual([
			"ARCHITECTURE.md: links to docs/gone.md, which does not exist",
			"docs/design/README.md: links to cli.md#startup, which is not a heading of that page",
		]);
	});
});
