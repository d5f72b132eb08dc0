import { describe, expect, it } from "vitest";
import {
	bashSchema,
	editSchema,
	findSchema,
	grepSchema,
	lsSchema,
	readSchema,
	writeSchema,
} from "../../src/core/tools/index.js";

// The built-in tool schemas are plain JSON Schema literals (no TypeBox at startup); the wire shape a
// provider sees must stay exactly what the TypeBox-built schemas serialized to.
const GOLDEN: Record<string, [unknown, string]> = {
	bash: [
		bashSchema,
		'{"type":"object","required":["command"],"properties":{"command":{"type":"string","description":"Bash command to execute"},"timeout":{"type":"number","description":"Timeout in seconds (optional, no default timeout)"}}}',
	],
	edit: [
		editSchema,
		'{"type":"object","required":["path","edits"],"properties":{"path":{"type":"string","description":"Path to the file to edit (relative or absolute)"},"edits":{"type":"array","items":{"type":"object","required":["oldText","newText"],"properties":{"oldText":{"type":"string","description":"Exact text to replace; must be unique in the original file and not overlap other edits"},"newText":{"type":"string","description":"Replacement text"}},"additionalProperties":false},"description":"Replacements, all matched against the original file content"}},"additionalProperties":false}',
	],
	find: [
		findSchema,
		`{"type":"object","required":["pattern"],"properties":{"pattern":{"type":"string","description":"Glob relative to the search directory, e.g. 'src/**/*.ts'; without '/' (e.g. '*.ts') it matches file names at any depth"},"path":{"type":"string","description":"Directory to search in (default: current directory)"},"limit":{"type":"number","description":"Maximum number of results (default: 1000)"}}}`,
	],
	grep: [
		grepSchema,
		`{"type":"object","required":["pattern"],"properties":{"pattern":{"type":"string","description":"Search pattern (regex or literal string)"},"path":{"type":"string","description":"Directory or file to search (default: current directory)"},"glob":{"type":"string","description":"Filter files by glob relative to path, e.g. 'src/**/*.ts'; without '/' (e.g. '*.ts') it matches file names at any depth"},"ignoreCase":{"type":"boolean","description":"Case-insensitive search (default: false)"},"literal":{"type":"boolean","description":"Treat pattern as a literal string instead of regex (default: false)"},"context":{"type":"number","description":"Lines to show before and after each match (default: 0)"},"limit":{"type":"number","description":"Maximum number of matches to return (default: 100)"}}}`,
	],
	ls: [
		lsSchema,
		'{"type":"object","properties":{"path":{"type":"string","description":"Directory to list (default: current directory)"},"limit":{"type":"number","description":"Maximum number of entries to return (default: 500)"}}}',
	],
	read: [
		readSchema,
		'{"type":"object","required":["path"],"properties":{"path":{"type":"string","description":"Path to the file to read (relative or absolute)"},"offset":{"type":"number","description":"Line number to start reading from (1-indexed)"},"limit":{"type":"number","description":"Maximum number of lines to read"}}}',
	],
	write: [
		writeSchema,
		'{"type":"object","required":["path","content"],"properties":{"path":{"type":"string","description":"Path to the file to write (relative or absolute)"},"content":{"type":"string","description":"Content to write to the file"}}}',
	],
};

describe("built-in tool parameter schemas", () => {
	for (const [name, [schema, json]] of Object.entries(GOLDEN)) {
		it(`${name} serializes to its established JSON Schema`, () => {
			expect(JSON.stringify(schema)).toBe(json);
		});
	}
});
