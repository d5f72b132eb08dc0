import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SettingsManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { readJson, tempDirs, writeJson } from "./helpers.js";

const sourceDir = fileURLToPath(new URL("../../src", import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Runs a fixture under `node --import jiti/register` so it executes the real TypeScript source. */
function runNode(
	script: string,
	args: string[],
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ["--import", "jiti/register", script, sourceDir, ...args], {
			stdio: ["ignore", "ignore", "pipe"],
		});
		let stderr = "";
		child.stderr.on("data", (chunk) => {
			stderr += chunk;
		});
		child.on("error", reject);
		child.on("close", (code, signal) => resolve({ code, signal, stderr }));
	});
}

describe("settings fault tests", () => {
	it("two processes writing different fields 1,000 times each lose nothing", { timeout: 120_000 }, async () => {
		const { cwd, agentDir } = tempDirs();
		const path = join(agentDir, "settings.json");
		writeJson(path, { theme: "dark" });
		const count = 1000;
		const results = await Promise.all([
			runNode(fixture("settings-writer.mjs"), [cwd, agentDir, "a", String(count)]),
			runNode(fixture("settings-writer.mjs"), [cwd, agentDir, "b", String(count)]),
		]);
		for (const result of results) expect(result.stderr).toBe("");
		for (const result of results) expect(result.code).toBe(0);
		const settings = readJson(path);
		const versions = settings.extensionChangelogVersions as Record<string, string>;
		expect(Object.keys(versions)).toHaveLength(2 * count);
		for (let i = 0; i < count; i++) {
			expect(versions[`a-${i}`]).toBe(String(i));
			expect(versions[`b-${i}`]).toBe(String(i));
		}
		expect(settings.theme).toBe("dark");
		expect(["a-last", "b-last"]).toContain(settings.lastChangelogVersion);
	});

	it("a process killed after the temp write and before the rename leaves the old file intact", async () => {
		const { cwd, agentDir } = tempDirs();
		const path = join(agentDir, "settings.json");
		writeJson(path, { theme: "dark", hideThinkingBlock: true });
		const before = readFileSync(path, "utf8");
		const result = await runNode(fixture("settings-crash-writer.mjs"), [cwd, agentDir]);
		expect(result.signal).toBe("SIGKILL");
		expect(readFileSync(path, "utf8")).toBe(before);
		// The orphaned temp file proves the write got as far as the rename.
		expect(readdirSync(agentDir).some((name) => name.endsWith(".tmp"))).toBe(true);
		// The killed writer's lock is left behind; reads still work because writes are atomic renames.
		const manager = SettingsManager.create(cwd, agentDir);
		expect(manager.getTheme()).toBe("dark");
		expect(manager.drainErrors()).toEqual([]);
	});
});
