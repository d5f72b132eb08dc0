import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuthStorage, ProjectTrustStore, SettingsManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { readMcpFile } from "../../src/builtin/mcp/config/load-config.js";
import { JsonFileError, parseJsonFile } from "../../src/config/fs/json-file.js";
import { collectSettingsDiagnostics, loadModelsJson } from "../../src/config/index.js";
import { loadThemeFromFile } from "../../src/core/resources/themes/theme-files.js";
import { loadUserKeybindings } from "../../src/modes/interactive/keybindings/app-keybindings.js";

function dir(): string {
	return mkdtempSync(join(tmpdir(), "tau-config-errors-"));
}

/** A file whose second line has a stray comma at column 15. */
const BROKEN = '{\n  "theme": "x",,\n  "b": 1\n}\n';

function locationOf(fn: () => unknown): { line: number; column: number; reason: string } {
	try {
		fn();
	} catch (error) {
		if (error instanceof JsonFileError) return { line: error.line, column: error.column, reason: error.reason };
		throw error;
	}
	throw new Error("parsed without error");
}

describe("parseJsonFile", () => {
	it("names the line and column of every kind of syntax error", () => {
		expect(locationOf(() => parseJsonFile("f.json", BROKEN))).toEqual({
			line: 2,
			column: 16,
			reason: "Expected double-quoted property name",
		});
		expect(locationOf(() => parseJsonFile("f.json", '{"a":\n  tru}'))).toMatchObject({ line: 2, column: 6 });
		expect(locationOf(() => parseJsonFile("f.json", "x"))).toMatchObject({ line: 1, column: 1 });
		expect(locationOf(() => parseJsonFile("f.json", '{"a": 1}\n}'))).toMatchObject({ line: 2, column: 1 });
		expect(locationOf(() => parseJsonFile("f.json", '{\n"a": [1, 2'))).toMatchObject({ line: 2, column: 11 });
		expect(locationOf(() => parseJsonFile("f.json", '\uFEFF{"a": "b\nc"}'))).toMatchObject({ line: 1, column: 9 });
		expect(() => parseJsonFile("/x/f.json", "{,")).toThrow(/^\/x\/f\.json:1:2: /);
	});
});

describe("configuration errors name the file, line and column", () => {
	it("settings.json: reported with its location and never overwritten", async () => {
		const agentDir = dir();
		const path = join(agentDir, "settings.json");
		writeFileSync(path, BROKEN);
		const settings = SettingsManager.create(dir(), agentDir);
		const [diagnostic] = collectSettingsDiagnostics(settings.drainErrors());
		expect(diagnostic?.message).toBe(`Invalid settings file ${path}:2:16: Expected double-quoted property name`);
		settings.setTheme("light");
		await settings.flush();
		expect(readFileSync(path, "utf8")).toBe(BROKEN);
	});

	it("auth.json: reported at the first read, stored keys unused, and never overwritten", async () => {
		const path = join(dir(), "auth.json");
		writeFileSync(path, BROKEN, { mode: 0o600 });
		const auth = AuthStorage.create(path);
		expect(await auth.list()).toEqual([]);
		expect(auth.drainDiagnostics().map((d) => d.message)).toEqual([
			`Invalid credentials file ${path}:2:16: Expected double-quoted property name; stored API keys and logins are not used until it is fixed`,
		]);
		await expect(auth.modify("anthropic", async () => ({ type: "api_key", key: "k" }))).rejects.toThrow(
			`${path}:2:16`,
		);
		expect(readFileSync(path, "utf8")).toBe(BROKEN);
	});

	it("models.json, keybindings.json, themes, mcp.json and trust.json", () => {
		const agentDir = dir();
		const file = (name: string) => {
			const path = join(agentDir, name);
			mkdirSync(join(path, ".."), { recursive: true });
			writeFileSync(path, BROKEN);
			return path;
		};
		const models = file("models.json");
		expect(loadModelsJson(models).error).toContain(`${models}:2:16: Expected double-quoted property name`);
		const keybindings = file("keybindings.json");
		expect(loadUserKeybindings(agentDir).problem).toBe(
			`Invalid keybindings.json: ${keybindings}:2:16: Expected double-quoted property name`,
		);
		const theme = file("themes/broken.json");
		expect(loadThemeFromFile(theme).diagnostics[0]?.message).toBe(
			`Failed to parse theme ${theme}:2:16: Expected double-quoted property name`,
		);
		const mcp = file("mcp.json");
		const errors: string[] = [];
		readMcpFile(mcp, errors);
		expect(errors).toEqual([`Invalid JSON in ${mcp}:2:16: Expected double-quoted property name`]);
		const trust = file("trust.json");
		const store = new ProjectTrustStore(agentDir);
		expect(store.get(dir())).toBeNull();
		expect(store.drainDiagnostics()[0]).toContain(`${trust}:2:16: Expected double-quoted property name`);
		expect(readFileSync(trust, "utf8")).toBe(BROKEN);
	});

	it("models.json trailing commas and comments do not shift the reported column", () => {
		const path = join(dir(), "models.json");
		writeFileSync(path, '{\n  "a": [1,], "b" 2 // note\n}\n');
		expect(loadModelsJson(path).error).toContain(`${path}:2:18:`);
	});
});
