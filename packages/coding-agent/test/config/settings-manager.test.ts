import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { SettingsManager } from "@tau/coding-agent";
import lockfile from "proper-lockfile";
import { describe, expect, it } from "vitest";
import {
	collectSettingsDiagnostics,
	formatSettingsWarning,
	resolveResourceEntries,
	type SettingsError,
} from "../../src/config/index.js";
import { npmCommandOrDefault } from "../../src/config/settings/normalize.js";
import { readJson, tempDirs, writeJson, writeText } from "./helpers.js";

function setup(user?: unknown, project?: unknown) {
	const dirs = tempDirs();
	const userPath = join(dirs.agentDir, "settings.json");
	const projectPath = join(dirs.cwd, ".tau", "settings.json");
	if (user !== undefined) writeJson(userPath, user);
	if (project !== undefined) writeJson(projectPath, project);
	return { ...dirs, userPath, projectPath };
}

describe("loading", () => {
	it("uses defaults for missing and empty files and never writes defaults", async () => {
		const { cwd, agentDir, userPath } = setup();
		const manager = SettingsManager.create(cwd, agentDir);
		expect(manager.getSteeringMode()).toBe("one-at-a-time");
		expect(manager.getCompactionSettings()).toEqual({ enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 });
		expect(existsSync(userPath)).toBe(false);
		manager.setTheme("dark");
		await manager.flush();
		expect(readJson(userPath)).toEqual({ theme: "dark" });

		writeText(userPath, "");
		const empty = SettingsManager.create(cwd, agentDir);
		expect(empty.getGlobalSettings()).toEqual({});
		expect(empty.drainErrors()).toEqual([]);
	});

	it("strips a BOM", () => {
		const { cwd, agentDir, userPath } = setup();
		writeText(userPath, '\uFEFF{"theme":"light"}');
		expect(SettingsManager.create(cwd, agentDir).getTheme()).toBe("light");
	});

	it("treats comments as a load error, continues with {} and reports the file", () => {
		const { cwd, agentDir, userPath } = setup();
		writeText(userPath, '{\n  // comment\n  "theme": "light"\n}');
		const manager = SettingsManager.create(cwd, agentDir);
		expect(manager.getTheme()).toBeUndefined();
		expect(manager.getLoadError("global")).toBeInstanceOf(SyntaxError);
		expect(manager.getLoadError("project")).toBeUndefined();
		const diagnostics = collectSettingsDiagnostics(manager.drainErrors());
		expect(diagnostics).toHaveLength(1);
		// `<file>:<line>:<column>: <what>`: the comment on line 2 is the problem.
		expect(diagnostics[0]!.message.startsWith(`Invalid settings file ${userPath}:2:3: `)).toBe(true);
	});

	it.each([["[]"], ["null"], ['"x"'], ["42"]])("reports a non-object top level %s", (text) => {
		const { cwd, agentDir, userPath } = setup();
		writeText(userPath, text);
		const manager = SettingsManager.create(cwd, agentDir);
		expect(collectSettingsDiagnostics(manager.drainErrors())).toEqual([
			{ type: "warning", message: `Invalid settings file ${userPath}: expected a JSON object` },
		]);
		expect(manager.getSettings()).toEqual({});
	});

	it("never writes a layer that failed to parse (bytes unchanged)", async () => {
		const { cwd, agentDir, userPath } = setup();
		writeText(userPath, '{"theme": "light",');
		const manager = SettingsManager.create(cwd, agentDir);
		manager.setTheme("dark");
		manager.setCompactionEnabled(false);
		await manager.flush();
		expect(readFileSync(userPath, "utf8")).toBe('{"theme": "light",');
		expect(manager.getTheme()).toBe("dark");
	});

	it("deduplicates diagnostics reported by two managers for the same file", () => {
		const { cwd, agentDir, userPath } = setup();
		writeText(userPath, "{");
		const errors: SettingsError[] = [
			...SettingsManager.create(cwd, agentDir).drainErrors(),
			...SettingsManager.create(cwd, agentDir).drainErrors(),
		];
		expect(errors).toHaveLength(2);
		expect(collectSettingsDiagnostics(errors)).toHaveLength(1);
	});
});

describe("scopes", () => {
	it("lets the project win per merge rules", () => {
		const { cwd, agentDir } = setup(
			{ compaction: { enabled: false }, enabledModels: ["a"], theme: "dark" },
			{ compaction: { keepRecentTokens: 40000 }, enabledModels: ["b"], theme: null },
		);
		const manager = SettingsManager.create(cwd, agentDir);
		expect(manager.getCompactionEnabled()).toBe(false);
		expect(manager.getCompactionKeepRecentTokens()).toBe(40000);
		expect(manager.getEnabledModels()).toEqual(["b"]);
		expect(manager.getSettings().theme).toBeNull();
		expect(manager.getTheme()).toBeUndefined();
	});

	it("ignores project values of user-only keys", () => {
		const projectValues = {
			httpProxy: "http://evil",
			defaultProjectTrust: "always",
			selfUpdateCommand: ["rm", "-rf"],
			cacheWarming: "streaming",
			deviceId: "spoofed",
			lastChangelogVersion: "99.0.0",
			extensionChangelogVersions: { k: "9" },
			trackingId: "spoofed",
		};
		const { cwd, agentDir } = setup({ cacheWarming: "off" }, projectValues);
		const manager = SettingsManager.create(cwd, agentDir);
		expect(manager.getHttpProxy()).toBeUndefined();
		expect(manager.getDefaultProjectTrust()).toBe("ask");
		expect(manager.getSelfUpdateCommand()).toBeUndefined();
		expect(manager.getCacheWarmingMode()).toBe("off");
		expect(manager.getOrCreateDeviceId()).not.toBe("spoofed");
		expect(manager.getLastChangelogVersion()).toBeUndefined();
		expect(manager.getExtensionChangelogVersion("k")).toBeUndefined();
		expect(manager.getTrackingId()).toBeUndefined();
		expect(manager.getSettings().httpProxy).toBeUndefined();
	});

	it("keeps the project layer empty while untrusted and refuses project writes", () => {
		const { cwd, agentDir } = setup({}, { theme: "project-theme" });
		const manager = SettingsManager.create(cwd, agentDir, { projectTrusted: false });
		expect(manager.getProjectSettings()).toEqual({});
		expect(manager.getTheme()).toBeUndefined();
		expect(() => manager.setProjectPackages(["npm:x"])).toThrow(
			"Project is not trusted; refusing to write project settings",
		);
		manager.setProjectTrusted(true);
		expect(manager.isProjectTrusted()).toBe(true);
		expect(manager.getTheme()).toBe("project-theme");
		manager.setProjectTrusted(false);
		expect(manager.getTheme()).toBeUndefined();
	});

	it("drops a queued project write when trust is revoked before it runs", async () => {
		const { cwd, agentDir, projectPath } = setup();
		const manager = SettingsManager.create(cwd, agentDir);
		manager.setProjectSkillPaths(["./skills"]);
		manager.setProjectTrusted(false);
		await manager.flush();
		expect(existsSync(projectPath)).toBe(false);
		expect(manager.drainErrors().map((e) => e.error.message)).toEqual([
			"Project is not trusted; refusing to write project settings",
		]);
	});

	it("writes project lists to the project file only", async () => {
		const { cwd, agentDir, userPath, projectPath } = setup({ theme: "dark" });
		const manager = SettingsManager.create(cwd, agentDir);
		manager.setProjectExtensionPaths(["./ext.ts"]);
		await manager.flush();
		expect(readJson(projectPath)).toEqual({ extensions: ["./ext.ts"] });
		expect(readJson(userPath)).toEqual({ theme: "dark" });
	});

	it("resolves resource lists of each layer against its own base dir", () => {
		const { cwd, agentDir } = setup({ extensions: ["ext/a.ts", "!ext/b.ts"] }, { extensions: ["local.ts"] });
		const manager = SettingsManager.create(cwd, agentDir);
		expect(manager.getExtensionPaths()).toEqual(["local.ts"]);
		expect(resolveResourceEntries(manager, "extensions", { agentDir, cwd })).toEqual([
			{ scope: "global", entry: "ext/a.ts", path: join(agentDir, "ext/a.ts") },
			{ scope: "global", entry: "!ext/b.ts", path: join(agentDir, "ext/b.ts") },
			{ scope: "project", entry: "local.ts", path: join(cwd, ".tau", "local.ts") },
		]);
	});

	it("applies runtime overrides without writing them; reload drops them", async () => {
		const { cwd, agentDir, userPath } = setup({ theme: "dark" });
		const manager = SettingsManager.create(cwd, agentDir);
		manager.applyOverrides({ theme: "light" });
		expect(manager.getTheme()).toBe("light");
		manager.setHideThinkingBlock(true);
		expect(manager.getTheme()).toBe("light");
		await manager.flush();
		expect(readJson(userPath)).toEqual({ theme: "dark", hideThinkingBlock: true });
		await manager.reload();
		expect(manager.getTheme()).toBe("dark");
	});
});

describe("write-back", () => {
	it("preserves a field another process changed between load and save", async () => {
		const { cwd, agentDir, userPath } = setup({ theme: "dark" });
		const manager = SettingsManager.create(cwd, agentDir);
		writeJson(userPath, { theme: "dark", defaultModel: "other-process" });
		manager.setSteeringMode("all");
		await manager.flush();
		expect(readJson(userPath)).toEqual({ theme: "dark", defaultModel: "other-process", steeringMode: "all" });
	});

	it("writes nested keys precisely and same-field writes are last-writer-wins", async () => {
		const { cwd, agentDir, userPath } = setup({ compaction: { enabled: true } });
		const manager = SettingsManager.create(cwd, agentDir);
		writeJson(userPath, { compaction: { enabled: true, keepRecentTokens: 1234 }, theme: "a" });
		manager.setCompactionEnabled(false);
		manager.setTheme("b");
		await manager.flush();
		expect(readJson(userPath)).toEqual({ compaction: { enabled: false, keepRecentTokens: 1234 }, theme: "b" });
	});

	it("rewrites legacy fields in migrated form only when a write happens", async () => {
		const { cwd, agentDir, userPath } = setup({ queueMode: "all", websockets: true });
		const manager = SettingsManager.create(cwd, agentDir);
		expect(manager.getSteeringMode()).toBe("all");
		expect(manager.getTransport()).toBe("websocket");
		await manager.flush();
		expect(readJson(userPath)).toEqual({ queueMode: "all", websockets: true });
		manager.setTheme("dark");
		await manager.flush();
		expect(readJson(userPath)).toEqual({ steeringMode: "all", transport: "websocket", theme: "dark" });
	});

	it("keeps the existing file mode and leaves no temp files", async () => {
		const { cwd, agentDir, userPath } = setup({ theme: "dark" });
		chmodSync(userPath, 0o640);
		const manager = SettingsManager.create(cwd, agentDir);
		manager.setTheme("light");
		await manager.flush();
		expect(statSync(userPath).mode & 0o777).toBe(0o640);
		expect(readdirSync(agentDir)).toEqual(["settings.json"]);
	});

	it("writes through a symlinked settings file and keeps the link", async () => {
		const { cwd, agentDir, root, userPath } = setup();
		const dotfile = join(root, "dotfiles", "tau-settings.json");
		writeJson(dotfile, { theme: "dark" });
		symlinkSync(dotfile, userPath);
		const manager = SettingsManager.create(cwd, agentDir);
		manager.setHideThinkingBlock(true);
		await manager.flush();
		expect(lstatSync(userPath).isSymbolicLink()).toBe(true);
		expect(readJson(dotfile)).toEqual({ theme: "dark", hideThinkingBlock: true });
	});

	it("succeeds when a held lock is released within the retry window", async () => {
		const { cwd, agentDir, userPath } = setup({ theme: "dark" });
		const manager = SettingsManager.create(cwd, agentDir, { writeRetryDeadlineMs: 0 });
		const release = lockfile.lockSync(userPath, { realpath: false });
		manager.setTheme("light");
		// The queued write runs after this microtask; release the lock before it starts retrying.
		release();
		await manager.flush();
		expect(manager.drainErrors()).toEqual([]);
		expect(readJson(userPath).theme).toBe("light");
	});

	it("records an error (no crash) when the lock stays held, then retries on the next flush", async () => {
		const { cwd, agentDir, userPath } = setup({ theme: "dark" });
		const manager = SettingsManager.create(cwd, agentDir, { writeRetryDeadlineMs: 0 });
		const release = lockfile.lockSync(userPath, { realpath: false });
		manager.setTheme("light");
		await manager.flush();
		const errors = manager.drainErrors();
		expect(errors).toHaveLength(1);
		expect((errors[0]!.error as NodeJS.ErrnoException).code).toBe("ELOCKED");
		expect(readJson(userPath).theme).toBe("dark");
		release();
		manager.setHideThinkingBlock(true);
		await manager.flush();
		expect(readJson(userPath)).toEqual({ theme: "light", hideThinkingBlock: true });
	});

	it("flush retries a write that lost the lock race until it lands", async () => {
		const { cwd, agentDir, userPath } = setup({ theme: "dark" });
		const manager = SettingsManager.create(cwd, agentDir);
		const release = lockfile.lockSync(userPath, { realpath: false });
		manager.setTheme("light");
		const flushed = manager.flush();
		// Let the first locked attempt fail, then free the lock for the retry.
		await new Promise<void>((resolve) => setImmediate(resolve));
		release();
		await flushed;
		expect(readJson(userPath).theme).toBe("light");
		expect(manager.drainErrors()).toEqual([]);
	});

	it("surfaces a file that became unparseable after startup and does not overwrite it", async () => {
		const { cwd, agentDir, userPath } = setup({ theme: "dark" });
		const manager = SettingsManager.create(cwd, agentDir, { writeRetryDeadlineMs: 0 });
		writeText(userPath, "{broken");
		manager.setTheme("light");
		await manager.flush();
		expect(readFileSync(userPath, "utf8")).toBe("{broken");
		expect(collectSettingsDiagnostics(manager.drainErrors())[0]!.message).toContain(
			`Invalid settings file ${userPath}:`,
		);
	});
});

describe("reload and flush", () => {
	it("reload waits for queued writes and then reflects disk", async () => {
		const { cwd, agentDir, userPath } = setup({ theme: "dark" });
		const manager = SettingsManager.create(cwd, agentDir);
		manager.setSteeringMode("all");
		const reloaded = manager.reload();
		await reloaded;
		expect(readJson(userPath).steeringMode).toBe("all");
		writeJson(userPath, { theme: "light", steeringMode: "all" });
		expect(manager.getTheme()).toBe("dark");
		await manager.reload();
		expect(manager.getTheme()).toBe("light");
	});

	it("a failed reload keeps the old values and records an error", async () => {
		const { cwd, agentDir, userPath } = setup({ theme: "dark" });
		const manager = SettingsManager.create(cwd, agentDir);
		writeText(userPath, "{oops");
		await manager.reload();
		expect(manager.getTheme()).toBe("dark");
		expect(manager.drainErrors()).toHaveLength(1);
	});
});

describe("inMemory", () => {
	it("runs the full logic without touching the disk", async () => {
		const { root } = tempDirs();
		const previousHome = process.env.HOME;
		process.env.HOME = join(root, "missing-home");
		try {
			const manager = SettingsManager.inMemory({ queueMode: "all", theme: "dark" } as never);
			expect(manager.getSteeringMode()).toBe("all");
			manager.setCompactionEnabled(false);
			await manager.flush();
			await manager.reload();
			expect(manager.getCompactionEnabled()).toBe(false);
			expect(manager.getGlobalSettings()).toEqual({
				steeringMode: "all",
				theme: "dark",
				compaction: { enabled: false },
			});
			expect(existsSync(join(root, "missing-home"))).toBe(false);
		} finally {
			process.env.HOME = previousHome;
		}
	});
});

describe("accessor normalization", () => {
	it("maps invalid enum values to their defaults", () => {
		const manager = SettingsManager.inMemory({
			steeringMode: "bogus",
			followUpMode: 3,
			cacheWarming: "always",
			treeFilterMode: "x",
			defaultProjectTrust: "sometimes",
			doubleEscapeAction: "y",
			sessionShareDestination: "ftp",
			tuiMode: "tiny",
			fullscreenExitOutput: "z",
			fullscreenScrollbar: "w",
			transport: "pigeon",
			quietStartup: "yes",
			outputPad: 2,
			theme: 5,
			markdown: { mermaid: "always" },
		} as never);
		expect(manager.getSteeringMode()).toBe("one-at-a-time");
		expect(manager.getFollowUpMode()).toBe("one-at-a-time");
		expect(manager.getCacheWarmingMode()).toBe("idle");
		expect(manager.getTreeFilterMode()).toBe("default");
		expect(manager.getDefaultProjectTrust()).toBe("ask");
		expect(manager.getDoubleEscapeAction()).toBe("tree");
		expect(manager.getSessionShareDestination()).toBe("auto");
		expect(manager.getTuiMode()).toBe("fullscreen");
		expect(manager.getFullscreenExitOutput()).toBe("transcript");
		expect(manager.getFullscreenScrollbar()).toBe("auto");
		expect(manager.getTransport()).toBe("auto");
		expect(manager.getQuietStartup()).toBe(false);
		expect(manager.getOutputPad()).toBe(1);
		expect(manager.getThemeSetting()).toBeUndefined();
		expect(manager.getMermaidRenderingMode()).toBe("streaming");
	});

	it("keeps valid enum values", () => {
		const manager = SettingsManager.inMemory({
			sessionShareDestination: "gist",
			tuiMode: "regular",
			quietStartup: "header",
			outputPad: 0,
			theme: "light/dark",
		});
		expect(manager.getSessionShareDestination()).toBe("gist");
		expect(manager.getTuiMode()).toBe("regular");
		expect(manager.getQuietStartup()).toBe("header");
		expect(manager.getOutputPad()).toBe(0);
		expect(manager.getThemeSetting()).toBe("light/dark");
		expect(manager.getTheme()).toBeUndefined();
	});

	it("clamps numeric display settings", () => {
		const wheel = (value: unknown) =>
			SettingsManager.inMemory({ fullscreenWheelScrollLines: value } as never).getFullscreenWheelScrollLines();
		expect(wheel(3.7)).toBe(3);
		expect(wheel(0)).toBe(1);
		expect(wheel(500)).toBe(100);
		expect(wheel("fast")).toBe("auto");
		expect(SettingsManager.inMemory({ terminal: { imageWidthCells: 0.5 } }).getImageWidthCells()).toBe(1);
		expect(SettingsManager.inMemory({ terminal: { imageWidthCells: 80.9 } }).getImageWidthCells()).toBe(80);
		const manager = SettingsManager.inMemory();
		manager.setEditorPaddingX(9);
		expect(manager.getEditorPaddingX()).toBe(3);
		manager.setAutocompleteMaxVisible(1);
		expect(manager.getAutocompleteMaxVisible()).toBe(3);
		manager.setAutocompleteMaxVisible(50);
		expect(manager.getAutocompleteMaxVisible()).toBe(20);
	});

	it("parses httpIdleTimeoutMs strictly", () => {
		const idle = (value: unknown) =>
			SettingsManager.inMemory({ httpIdleTimeoutMs: value } as never).getHttpIdleTimeoutMs();
		expect(idle(undefined)).toBe(300000);
		expect(idle("disabled")).toBe(0);
		expect(idle(0)).toBe(0);
		expect(idle("120000")).toBe(120000);
		expect(idle(1500.9)).toBe(1500);
		expect(() => idle(-1)).toThrow("Invalid httpIdleTimeoutMs setting: -1");
		expect(() => idle("soon")).toThrow("Invalid httpIdleTimeoutMs setting: soon");
		expect(() => idle(" ")).toThrow("Invalid httpIdleTimeoutMs setting:  ");
		const manager = SettingsManager.inMemory();
		expect(() => manager.setHttpIdleTimeoutMs(-5)).toThrow("Invalid httpIdleTimeoutMs setting");
		expect(() => manager.setHttpIdleTimeoutMs(Number.NaN)).toThrow("Invalid httpIdleTimeoutMs setting");
		manager.setHttpIdleTimeoutMs(999.5);
		expect(manager.getHttpIdleTimeoutMs()).toBe(999);
	});

	it("validates compaction tokens strictly, with per-model overrides", () => {
		const manager = SettingsManager.inMemory({
			compaction: { reserveTokens: 1000, modelOverrides: { "acme/big": { reserveTokens: 400000 } } },
		});
		expect(manager.getCompactionReserveTokens({ provider: "acme", id: "big" })).toBe(400000);
		expect(manager.getCompactionReserveTokens({ provider: "acme", id: "small" })).toBe(1000);
		expect(manager.getCompactionKeepRecentTokens({ provider: "acme", id: "big" })).toBe(20000);
		const bad = SettingsManager.inMemory({ compaction: { keepRecentTokens: -3 } });
		expect(() => bad.getCompactionKeepRecentTokens()).toThrow(
			"Invalid compaction.keepRecentTokens setting: -3. Expected a non-negative safe integer.",
		);
		const badOverride = SettingsManager.inMemory({ compaction: { modelOverrides: { "a/b": 5 as never } } });
		expect(() => badOverride.getCompactionReserveTokens({ provider: "a", id: "b" })).toThrow(
			'Invalid compaction.modelOverrides["a/b"] setting: 5. Expected an object.',
		);
	});

	it("npmCommand: unset is undefined, as in Pi; running it defaults to npm and rejects an empty command", () => {
		expect(SettingsManager.inMemory().getNpmCommand()).toBeUndefined();
		expect(npmCommandOrDefault(SettingsManager.inMemory().getNpmCommand())).toEqual(["npm"]);
		expect(npmCommandOrDefault(SettingsManager.inMemory({ npmCommand: ["pnpm"] }).getNpmCommand())).toEqual(["pnpm"]);
		expect(() => npmCommandOrDefault(SettingsManager.inMemory({ npmCommand: [""] }).getNpmCommand())).toThrow(
			"Invalid npmCommand: first array entry must be a non-empty command",
		);
	});

	it("manages model thinking levels, analytics ids and device ids in the user layer", () => {
		const manager = SettingsManager.inMemory();
		manager.setModelThinkingLevel("anthropic", "claude", "high");
		expect(manager.getModelThinkingLevel("anthropic", "claude")).toBe("high");
		manager.removeModelThinkingLevel("anthropic", "claude");
		expect(manager.getGlobalSettings().modelThinkingLevels).toBeUndefined();
		expect(manager.getTrackingId()).toBeUndefined();
		manager.setEnableAnalytics(true);
		const trackingId = manager.getTrackingId();
		expect(trackingId).toMatch(/^[0-9a-f-]{36}$/);
		manager.setEnableAnalytics(false);
		manager.setEnableAnalytics(true);
		expect(manager.getTrackingId()).toBe(trackingId);
		const device = manager.getOrCreateDeviceId();
		expect(manager.getOrCreateDeviceId()).toBe(device);
		expect(manager.getThinkingBudgets()).toBeUndefined();
	});

	it("maps the terminal capability overrides to explicit values only", () => {
		expect(
			SettingsManager.inMemory({ terminal: { images: false, trueColor: "auto" } }).getTerminalCapabilityOverrides(),
		).toEqual({
			images: null,
		});
		expect(
			SettingsManager.inMemory({ terminal: { images: "kitty", hyperlinks: true } }).getTerminalCapabilityOverrides(),
		).toEqual({ images: "kitty", hyperlinks: true });
	});
});

describe("retry, editor and warnings", () => {
	it("unset settings read as undefined where Pi's getters return undefined", () => {
		const manager = SettingsManager.inMemory();
		expect(manager.getThemeSetting()).toBeUndefined();
		expect(manager.getThinkingBudgets()).toBeUndefined();
		expect(manager.getWebSocketConnectTimeoutMs()).toBeUndefined();
		expect(manager.getNpmCommand()).toBeUndefined();
		expect(manager.getWarnings()).toEqual({});
		const set = SettingsManager.inMemory({
			thinkingBudgets: { low: 100 },
			websocketConnectTimeoutMs: "750",
			warnings: { anthropicExtraUsage: false },
		});
		expect(set.getThinkingBudgets()).toEqual({ low: 100 });
		expect(set.getWebSocketConnectTimeoutMs()).toBe(750);
		expect(set.getWarnings()).toEqual({ anthropicExtraUsage: false });
	});

	it("provider retry settings are what retry.provider sets, with Pi's maxRetryDelayMs default", () => {
		expect(SettingsManager.inMemory().getRetrySettings()).toEqual({
			enabled: true,
			maxRetries: 3,
			baseDelayMs: 2000,
			maxAgentDelayMs: 60000,
		});
		// The request timeout falls back to httpIdleTimeoutMs when the request is built, not here.
		expect(SettingsManager.inMemory().getProviderRetrySettings()).toEqual({ maxRetryDelayMs: 60000 });
		expect(SettingsManager.inMemory({ httpIdleTimeoutMs: "disabled" }).getProviderRetrySettings()).toEqual({
			maxRetryDelayMs: 60000,
		});
		expect(
			SettingsManager.inMemory({
				retry: { provider: { timeoutMs: 5000, maxRetries: 1, maxRetryDelayMs: 0 } },
			}).getProviderRetrySettings(),
		).toEqual({ timeoutMs: 5000, maxRetries: 1, maxRetryDelayMs: 0 });
	});

	it("falls back from a blank externalEditor to VISUAL, EDITOR, then nano", () => {
		const saved = { ...process.env };
		try {
			process.env.VISUAL = "code --wait";
			process.env.EDITOR = "vim";
			expect(SettingsManager.inMemory({ externalEditor: "  " }).getExternalEditorCommand()).toBe("code --wait");
			expect(SettingsManager.inMemory({ externalEditor: "hx" }).getExternalEditorCommand()).toBe("hx");
			delete process.env.VISUAL;
			expect(SettingsManager.inMemory().getExternalEditorCommand()).toBe("vim");
			delete process.env.EDITOR;
			expect(SettingsManager.inMemory().getExternalEditorCommand()).toBe(
				process.platform === "win32" ? "notepad" : "nano",
			);
		} finally {
			process.env = saved;
		}
	});

	it("formats warnings for package commands", () => {
		expect(
			formatSettingsWarning("install", { scope: "project", path: "/p/.tau/settings.json", error: new Error("bad") }),
		).toBe("Warning (install, project settings): bad");
		expect(collectSettingsDiagnostics([{ scope: "global", error: new Error("oops") }])).toEqual([
			{ type: "warning", message: "Invalid global settings: oops" },
		]);
	});
});
