// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the tests spell out literal ${VAR} config syntax
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	escapeConfigValue,
	resolveConfigValue,
	resolveConfigValueOrThrow,
	resolveConfigValueUncached,
	resolveHeaders,
	resolveHeadersOrThrow,
} from "../../src/config/index.js";
import { tempDirs } from "./helpers.js";

const saved = { ...process.env };
beforeEach(() => {
	process.env.TAU_TEST_KEY = "from-process";
	process.env.TAU_TEST_EMPTY = "";
	delete process.env.TAU_TEST_MISSING;
});
afterEach(() => {
	process.env = { ...saved };
});

describe("value templates", () => {
	it.each([
		["$TAU_TEST_KEY", "from-process"],
		["${TAU_TEST_KEY}", "from-process"],
		["pre-${TAU_TEST_KEY}-post", "pre-from-process-post"],
		["$TAU_TEST_KEY.x", "from-process.x"],
		["cost $$5", "cost $5"],
		["$!bang", "!bang"],
		["${bad-name}", "${bad-name}"],
		["abc${TAU_TEST_KEY", "abc${TAU_TEST_KEY"],
		["trailing$", "trailing$"],
		["$1", "$1"],
		["plain-key", "plain-key"],
	])("%s resolves to %s", (value, expected) => {
		expect(resolveConfigValueUncached(value)).toBe(expected);
	});

	it("is unresolved when any variable is missing or empty", () => {
		expect(resolveConfigValueUncached("$TAU_TEST_MISSING")).toBeUndefined();
		expect(resolveConfigValueUncached("a-${TAU_TEST_KEY}-$TAU_TEST_MISSING")).toBeUndefined();
		expect(resolveConfigValueUncached("$TAU_TEST_EMPTY")).toBeUndefined();
	});

	it("prefers the env overlay over the process environment, except empty overlay values", () => {
		expect(resolveConfigValueUncached("$TAU_TEST_KEY", { TAU_TEST_KEY: "overlay" })).toBe("overlay");
		expect(resolveConfigValueUncached("$TAU_TEST_KEY", { TAU_TEST_KEY: "" })).toBe("from-process");
		expect(resolveConfigValueUncached("$TAU_TEST_MISSING", { TAU_TEST_MISSING: "x" })).toBe("x");
	});

	it("escapes typed keys so they resolve back to the literal", () => {
		for (const literal of ["sk-$abc$$", "!notacommand", "a$TAU_TEST_KEY", "${x}", "plain"]) {
			expect(resolveConfigValueUncached(escapeConfigValue(literal))).toBe(literal);
		}
		expect(escapeConfigValue("!x$y")).toBe("$!x$$y");
	});

	it("names what failed when resolving strictly", () => {
		expect(() => resolveConfigValueOrThrow("$TAU_TEST_MISSING", "API key")).toThrow(
			"Failed to resolve API key from environment variable: TAU_TEST_MISSING",
		);
		expect(() => resolveConfigValueOrThrow("$A_TAU_MISSING-$B_TAU_MISSING", "API key")).toThrow(
			"Failed to resolve API key from environment variables: A_TAU_MISSING, B_TAU_MISSING",
		);
		expect(() => resolveConfigValueOrThrow("!exit 3", "API key")).toThrow(
			"Failed to resolve API key from shell command: exit 3",
		);
		expect(resolveConfigValueOrThrow("", "API key")).toBe("");
	});

	it("drops unresolved headers leniently and throws strictly", () => {
		const headers = { "X-A": "$TAU_TEST_KEY", "X-B": "$TAU_TEST_MISSING" };
		expect(resolveHeaders(headers)).toEqual({ "X-A": "from-process" });
		expect(() => resolveHeadersOrThrow(headers)).toThrow("TAU_TEST_MISSING");
	});
});

describe("!command values", () => {
	it("trims output; non-zero exit, empty output and timeout are unresolved", () => {
		expect(resolveConfigValueUncached("!printf '  secret\\n'")).toBe("secret");
		expect(resolveConfigValueUncached("!echo out; exit 2")).toBeUndefined();
		expect(resolveConfigValueUncached("!printf ''")).toBeUndefined();
		expect(resolveConfigValueUncached("!sleep 5; echo late", undefined, { timeoutMs: 50 })).toBeUndefined();
	});

	it("caches command results for auth.json values and reruns them for models.json values", () => {
		const { root } = tempDirs();
		const counter = join(root, "count");
		const command = `!echo x >> ${counter}; wc -l < ${counter}`;
		expect(resolveConfigValue(command)).toBe("1");
		expect(resolveConfigValue(command)).toBe("1");
		expect(resolveConfigValueUncached(command)).toBe("2");
		expect(resolveConfigValueUncached(command)).toBe("3");
	});

	it("caches failures too", () => {
		const { root } = tempDirs();
		const marker = join(root, "ready");
		const command = `!cat ${marker}`;
		expect(resolveConfigValue(command)).toBeUndefined();
		writeFileSync(marker, "now-ready");
		expect(resolveConfigValue(command)).toBeUndefined();
		expect(resolveConfigValueUncached(command)).toBe("now-ready");
	});
});
