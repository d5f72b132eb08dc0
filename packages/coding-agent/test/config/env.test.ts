import { homedir } from "node:os";
import { join } from "node:path";
import { CONFIG_DIR_NAME, getAgentDir, SettingsManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	APP_NAME,
	applyHttpProxySetting,
	applyOfflineFlag,
	ENV,
	ENV_AGENT_DIR,
	ENV_SESSION_DIR,
	getProjectConfigDir,
	isOffline,
	shellToolEnvironment,
	shouldSkipVersionCheck,
	telemetryOverride,
} from "../../src/config/index.js";

describe("branding and paths", () => {
	it("derives names from package.json tauConfig", () => {
		expect(APP_NAME).toBe("tau");
		expect(CONFIG_DIR_NAME).toBe(".tau");
		expect(ENV_AGENT_DIR).toBe("TAU_CODING_AGENT_DIR");
		expect(ENV_SESSION_DIR).toBe("TAU_CODING_AGENT_SESSION_DIR");
		expect(ENV.offline).toBe("TAU_OFFLINE");
		expect(ENV.sessionId).toBe("TAU_SESSION_ID");
	});

	it("uses TAU_CODING_AGENT_DIR with tilde expansion, else ~/.tau/agent", () => {
		expect(getAgentDir({})).toBe(join(homedir(), ".tau", "agent"));
		expect(getAgentDir({ TAU_CODING_AGENT_DIR: "" })).toBe(join(homedir(), ".tau", "agent"));
		expect(getAgentDir({ TAU_CODING_AGENT_DIR: "~" })).toBe(homedir());
		expect(getAgentDir({ TAU_CODING_AGENT_DIR: "~/custom/agent" })).toBe(join(homedir(), "custom", "agent"));
		expect(getAgentDir({ TAU_CODING_AGENT_DIR: "/opt/tau" })).toBe("/opt/tau");
		expect(getProjectConfigDir("/work/p")).toBe("/work/p/.tau");
	});

	it("ignores Pi's variables", () => {
		expect(getAgentDir({ PI_CODING_AGENT_DIR: "/pi/agent" })).toBe(join(homedir(), ".tau", "agent"));
		expect(isOffline({ PI_OFFLINE: "1" })).toBe(false);
	});
});

describe("environment flags", () => {
	it.each([
		["1", true],
		["true", true],
		["YES", true],
		[" True ", true],
		["0", false],
		["false", false],
		["", false],
		["offline", false],
	])("TAU_OFFLINE=%j is offline: %s", (value, expected) => {
		expect(isOffline({ TAU_OFFLINE: value })).toBe(expected);
	});

	it("--offline sets TAU_OFFLINE and TAU_SKIP_VERSION_CHECK", () => {
		const env: NodeJS.ProcessEnv = {};
		expect(shouldSkipVersionCheck(env)).toBe(false);
		applyOfflineFlag(env);
		expect(env).toEqual({ TAU_OFFLINE: "1", TAU_SKIP_VERSION_CHECK: "1" });
		expect(isOffline(env)).toBe(true);
		expect(shouldSkipVersionCheck({ TAU_SKIP_VERSION_CHECK: "yes" })).toBe(true);
	});

	it("reads TAU_TELEMETRY as an explicit override", () => {
		expect(telemetryOverride({ TAU_TELEMETRY: "no" })).toBe(false);
		expect(telemetryOverride({ TAU_TELEMETRY: "1" })).toBe(true);
		expect(telemetryOverride({ TAU_TELEMETRY: "maybe" })).toBeUndefined();
	});

	it("fills proxy variables from the setting only when unset", () => {
		const env: NodeJS.ProcessEnv = { HTTPS_PROXY: "http://existing" };
		applyHttpProxySetting("http://setting", env);
		expect(env).toEqual({ HTTPS_PROXY: "http://existing", HTTP_PROXY: "http://setting" });
	});

	it("gives shell tools the session variables and strips them when exposure is disabled", () => {
		const parent = { PATH: "/bin", TAU_SESSION_ID: "stale", TAU_MODEL: "stale-model" };
		expect(
			shellToolEnvironment(parent, {
				sessionId: "s1",
				sessionFile: "/s/1.jsonl",
				provider: "anthropic",
				model: "m",
				reasoningLevel: "high",
			}),
		).toEqual({
			PATH: "/bin",
			TAU_CODING_AGENT: "true",
			TAU_SESSION_ID: "s1",
			TAU_SESSION_FILE: "/s/1.jsonl",
			TAU_PROVIDER: "anthropic",
			TAU_MODEL: "m",
			TAU_REASONING_LEVEL: "high",
		});
		expect(shellToolEnvironment(parent, undefined)).toEqual({ PATH: "/bin", TAU_CODING_AGENT: "true" });
	});

	it("lets settings win over TAU_CLEAR_ON_SHRINK and TAU_HARDWARE_CURSOR only when set", () => {
		const saved = { ...process.env };
		try {
			process.env.TAU_CLEAR_ON_SHRINK = "1";
			process.env.TAU_HARDWARE_CURSOR = "1";
			expect(SettingsManager.inMemory().getClearOnShrink()).toBe(true);
			expect(SettingsManager.inMemory().getShowHardwareCursor()).toBe(true);
			expect(SettingsManager.inMemory({ terminal: { clearOnShrink: false } }).getClearOnShrink()).toBe(false);
			expect(SettingsManager.inMemory({ showHardwareCursor: false }).getShowHardwareCursor()).toBe(false);
			process.env.TAU_SELF_UPDATE_COMMAND = "pnpm add -g {installSpec}";
			expect(SettingsManager.inMemory({ selfUpdateCommand: ["npm"] }).getSelfUpdateCommand()).toEqual([
				"pnpm",
				"add",
				"-g",
				"{installSpec}",
			]);
		} finally {
			process.env = saved;
		}
	});
});
