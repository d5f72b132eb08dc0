import { describe, expect, it } from "vitest";
import { readFrontmatter, stripFrontmatter } from "../../src/core/resources/frontmatter/frontmatter.js";
import { parseYaml } from "../../src/core/resources/frontmatter/yaml-subset.js";

function yaml(text: string): unknown {
	const result = parseYaml(text);
	if (!result.ok) throw new Error(result.error);
	return result.value;
}

function yamlError(text: string): string {
	const result = parseYaml(text);
	if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
	return result.error;
}

describe("YAML subset", () => {
	it("reads plain, quoted and typed scalars", () => {
		expect(
			yaml(
				[
					"name: pdf-tools",
					"count: 42",
					"ratio: 1.5",
					"enabled: true",
					"off: False",
					"nothing: ~",
					"empty:",
					'quoted: "a: b # not a comment\\n\\u00e9"',
					"single: 'it''s'",
					"url: https://example.com/a#frag",
					"trailing: value # a comment",
				].join("\n"),
			),
		).toEqual({
			name: "pdf-tools",
			count: 42,
			ratio: 1.5,
			enabled: true,
			off: false,
			nothing: null,
			empty: null,
			quoted: "a: b # not a comment\né",
			single: "it's",
			url: "https://example.com/a#frag",
			trailing: "value",
		});
	});

	it("reads block and flow sequences and nested mappings", () => {
		expect(
			yaml(
				[
					"allowed-tools:",
					"  - read",
					"  - 'bash'",
					"tags:",
					"- a",
					"- b",
					'flow: [x, "y, z", 3]',
					"map: {a: 1, b: [2]}",
					"metadata:",
					"  author: ana",
					"  nested:",
					"    deep: yes",
					"items:",
					"  - name: one",
					"    value: 1",
					"  - name: two",
				].join("\n"),
			),
		).toEqual({
			"allowed-tools": ["read", "bash"],
			tags: ["a", "b"],
			flow: ["x", "y, z", 3],
			map: { a: 1, b: [2] },
			metadata: { author: "ana", nested: { deep: "yes" } },
			items: [{ name: "one", value: 1 }, { name: "two" }],
		});
	});

	it("reads literal and folded block scalars with chomping", () => {
		const doc = yaml(
			[
				"literal: |",
				"  line one",
				"    indented",
				"",
				"  line three",
				"folded: >-",
				"  joined",
				"  words",
				"",
				"  new paragraph",
				"keep: |+",
				"  x",
				"",
				"next: end",
			].join("\n"),
		);
		expect(doc).toEqual({
			literal: "line one\n  indented\n\nline three\n",
			folded: "joined words\nnew paragraph",
			keep: "x\n\n",
			next: "end",
		});
	});

	it("folds multi-line plain and quoted values", () => {
		expect(yaml('description: first part\n  second part\nq: "a\n  b"')).toEqual({
			description: "first part second part",
			q: "a b",
		});
	});

	it("reports broken input as an error naming the line, never throwing", () => {
		expect(yamlError('name: "unterminated')).toMatch(/unterminated quoted string at line 1/);
		expect(yamlError("a: [1, 2")).toMatch(/unterminated flow collection/);
		expect(yamlError("a: 1\na: 2")).toMatch(/duplicate key "a" at line 2/);
		expect(yamlError("a: b: c")).toMatch(/nested mappings/);
		expect(yamlError("a:\n    b: 1\n  c: 2")).toMatch(/bad indentation at line 3/);
		expect(yamlError("a:\n  b: 1\n    c: 2")).toMatch(/nested mappings/);
		expect(yamlError("a: *alias")).toMatch(/aliases/);
		expect(yamlError("a: @x")).toMatch(/cannot start with "@"/);
		expect(yamlError("\ta: 1")).toMatch(/tabs/);
		expect(yamlError('a: "\\q"')).toMatch(/invalid escape/);
		expect(yamlError('a: "\\U7FFFFFFF"')).toMatch(/invalid escape/);
		expect(yamlError(`a: ${"[".repeat(100_000)}${"]".repeat(100_000)}`)).toMatch(/^invalid YAML: RangeError/);
	});

	it("accepts comments between keys, quoted keys, spaced keys and CRLF line ends", () => {
		expect(
			yaml(
				[
					"# leading comment",
					"name : spaced",
					"",
					"  # indented comment",
					'"quoted key": 1',
					"'single key': two",
					"list: # comment after key",
					"  - a # trailing",
					"  # between items",
					"  - b",
				].join("\r\n"),
			),
		).toEqual({ name: "spaced", "quoted key": 1, "single key": "two", list: ["a", "b"] });
	});

	it("keeps hashes inside words, negative numbers and version-like strings as written", () => {
		expect(yaml("a: C#\nb: -3\nc: 1.2.3\nd: v1\ne: 0x1F\nf: .5")).toEqual({
			a: "C#",
			b: -3,
			c: "1.2.3",
			d: "v1",
			e: 31,
			f: 0.5,
		});
	});

	it("treats an empty document as null", () => {
		expect(yaml("")).toBeNull();
		expect(yaml("# only a comment\n")).toBeNull();
	});
});

describe("readFrontmatter", () => {
	it("splits frontmatter from a trimmed body, normalizing CRLF and a BOM", () => {
		const parsed = readFrontmatter("\uFEFF---\r\ndescription: Fix tests\r\n---\r\n\r\nBody $1\r\n");
		expect(parsed).toEqual({
			ok: true,
			hasFrontmatter: true,
			frontmatter: { description: "Fix tests" },
			body: "Body $1",
		});
	});

	it("keeps text without a closing delimiter as the whole body", () => {
		expect(readFrontmatter("---\nname: x\nno close")).toEqual({
			ok: true,
			hasFrontmatter: false,
			frontmatter: {},
			body: "---\nname: x\nno close",
		});
		expect(readFrontmatter("  plain text\n")).toMatchObject({ hasFrontmatter: false, body: "  plain text\n" });
	});

	it("treats empty frontmatter as {} and rejects a non-mapping", () => {
		expect(readFrontmatter("---\n---\nbody")).toMatchObject({ ok: true, frontmatter: {}, body: "body" });
		expect(readFrontmatter("---\n- a\n---\nbody")).toEqual({
			ok: false,
			error: "frontmatter must be a mapping of keys to values",
		});
	});

	it("reports YAML errors as values and still strips the block for display", () => {
		const text = '---\ndescription: "open\n---\nThe body';
		expect(readFrontmatter(text).ok).toBe(false);
		expect(stripFrontmatter(text)).toBe("The body");
	});
});
