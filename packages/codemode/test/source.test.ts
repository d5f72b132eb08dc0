import {
	CODEMODE_OPTIONS_PREFIX,
	CODEMODE_SOURCE_GRAMMAR,
	CodemodeSourceError,
	parseCodemodeSource,
} from "@tau/codemode/source";
import { describe, expect, it } from "vitest";

describe("parseCodemodeSource", () => {
	it("returns plain source unchanged", () => {
		expect(parseCodemodeSource("return 1")).toEqual({ code: "return 1", options: {} });
	});

	it("turns a first-line options comment into an empty line and parses the options", () => {
		const parsed = parseCodemodeSource(
			`  ${CODEMODE_OPTIONS_PREFIX} {"max_output_tokens": 100, "timeout_ms": 500}\r\nline2\nline3`,
		);
		expect(parsed.options).toEqual({ maxOutputTokens: 100, timeoutMs: 500 });
		expect(parsed.code.split("\n")).toEqual(["", "line2", "line3"]);
	});

	it("rejects options after the first line, naming the line", () => {
		expect(() => parseCodemodeSource('a()\nb()\n  // @options: {"timeout_ms": 5}')).toThrow(/line 3/);
	});

	it.each([
		["empty input", ""],
		["whitespace input", "  \n\t"],
		["unknown key", '// @options: {"foo": 1}\nx'],
		["bad JSON", "// @options: {nope}\nx"],
		["no object", "// @options: [1]\nx"],
		["empty options", "// @options:\nx"],
		["timeout_ms 0", '// @options: {"timeout_ms": 0}\nx'],
		["timeout_ms too large", '// @options: {"timeout_ms": 2147483648}\nx'],
		["negative tokens", '// @options: {"max_output_tokens": -1}\nx'],
		["fractional tokens", '// @options: {"max_output_tokens": 1.5}\nx'],
		["no code", '// @options: {"timeout_ms": 5}\n  \n'],
		["no newline", '// @options: {"timeout_ms": 5}'],
	])("rejects %s", (_label, input) => {
		expect(() => parseCodemodeSource(input)).toThrow(CodemodeSourceError);
	});

	it("publishes the Lark grammar for constrained sampling", () => {
		expect(CODEMODE_SOURCE_GRAMMAR).toContain("start: options_source | plain_source");
		expect(CODEMODE_SOURCE_GRAMMAR).toContain("OPTIONS_LINE: /[ \\t]*\\/\\/ @options:[^\\r\\n]*/");
	});
});
