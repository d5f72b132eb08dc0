import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importPiConfig } from "../../src/config/migrations/import-pi.js";
import { runStartupMigrations } from "../../src/config/migrations/startup-migrations.js";
import { readJson, tempDirs, writeJson, writeText } from "./helpers.js";

describe("startup migrations", () => {
	it("moves oauth.json and settings apiKeys into a new 0600 auth.json", () => {
		const { agentDir, cwd } = tempDirs();
		writeJson(join(agentDir, "oauth.json"), { codex: { access: "a", refresh: "r", expires: 5 } });
		writeJson(join(agentDir, "settings.json"), { theme: "dark", apiKeys: { openai: "sk-1", bad: 3 } });
		const result = runStartupMigrations(agentDir, cwd);
		expect(result.migratedProviders.sort()).toEqual(["codex", "openai"]);
		expect(readJson(join(agentDir, "auth.json"))).toEqual({
			codex: { type: "oauth", access: "a", refresh: "r", expires: 5 },
			openai: { type: "api_key", key: "sk-1" },
		});
		expect(statSync(join(agentDir, "auth.json")).mode & 0o777).toBe(0o600);
		expect(existsSync(join(agentDir, "oauth.json.migrated"))).toBe(true);
		expect(readJson(join(agentDir, "settings.json"))).toEqual({ theme: "dark" });
		expect(runStartupMigrations(agentDir, cwd).migratedProviders).toEqual([]);
	});

	it("leaves an existing auth.json alone", () => {
		const { agentDir, cwd } = tempDirs();
		writeJson(join(agentDir, "auth.json"), {});
		writeJson(join(agentDir, "settings.json"), { apiKeys: { openai: "sk-1" } });
		expect(runStartupMigrations(agentDir, cwd).migratedProviders).toEqual([]);
		expect(readJson(join(agentDir, "settings.json"))).toEqual({ apiKeys: { openai: "sk-1" } });
	});

	it("moves loose sessions, managed binaries and commands/ and warns about hooks and custom tools", () => {
		const { agentDir, cwd } = tempDirs();
		const header = JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "t", cwd: "/home/ana/app" });
		writeText(join(agentDir, "old.jsonl"), `${header}\n`);
		writeText(join(agentDir, "junk.jsonl"), "not a session\n");
		writeText(join(agentDir, "tools", "rg"), "binary");
		writeText(join(agentDir, "tools", "fd"), "old");
		writeText(join(agentDir, "bin", "fd"), "new");
		writeText(join(agentDir, "tools", "my-tool.ts"), "export {}");
		writeText(join(agentDir, "commands", "review.md"), "Review");
		mkdirSync(join(cwd, ".tau", "hooks"), { recursive: true });
		const result = runStartupMigrations(agentDir, cwd);
		expect(readFileSync(join(agentDir, "sessions", "--home-ana-app--", "old.jsonl"), "utf8")).toBe(`${header}\n`);
		expect(existsSync(join(agentDir, "junk.jsonl"))).toBe(true);
		expect(readFileSync(join(agentDir, "bin", "rg"), "utf8")).toBe("binary");
		expect(readFileSync(join(agentDir, "bin", "fd"), "utf8")).toBe("new");
		expect(existsSync(join(agentDir, "tools", "fd"))).toBe(false);
		expect(existsSync(join(agentDir, "prompts", "review.md"))).toBe(true);
		expect(result.warnings).toEqual([
			`${join(agentDir, "tools")} is no longer loaded: custom tools are now extensions (move them to extensions/)`,
			`${join(cwd, ".tau", "hooks")} is no longer loaded: hooks are now extensions (move them to extensions/)`,
		]);
	});

	it("turns a failing step into a warning", () => {
		const { agentDir, cwd } = tempDirs();
		writeText(join(agentDir, "oauth.json"), "{broken");
		const result = runStartupMigrations(agentDir, cwd);
		expect(result.warnings[0]).toMatch(/^Migration "credentials" failed: /);
		expect(existsSync(join(agentDir, "auth.json"))).toBe(false);
	});
});

describe("importPiConfig", () => {
	it("copies Pi's files without overwriting and keeps auth.json private", () => {
		const { root, agentDir } = tempDirs();
		const piDir = join(root, "pi-agent");
		writeJson(join(piDir, "settings.json"), { theme: "pi" });
		writeJson(join(piDir, "auth.json"), { openai: { type: "api_key", key: "k" } });
		chmodSync(join(piDir, "auth.json"), 0o600);
		writeJson(join(piDir, "models.json"), { providers: {} });
		writeJson(join(agentDir, "models.json"), { providers: { mine: {} } });
		expect(importPiConfig(piDir, agentDir)).toEqual({
			copied: ["settings.json", "auth.json"],
			skipped: ["models.json"],
		});
		expect(readJson(join(agentDir, "settings.json"))).toEqual({ theme: "pi" });
		expect(readJson(join(agentDir, "models.json"))).toEqual({ providers: { mine: {} } });
		expect(statSync(join(agentDir, "auth.json")).mode & 0o777).toBe(0o600);
	});
});
