import { chmodSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AuthStorage, SettingsManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { cliBuilt, runCli, sandbox } from "./harness.js";

const mode = (path: string) => statSync(path).mode & 0o777;

describe.skipIf(!cliBuilt || process.platform === "win32")("permissions of what tau writes (built CLI)", () => {
	it("a first run creates the agent and session folders 0700 and the session file 0600", async () => {
		const box = sandbox();
		const agentDir = join(box.home, "fresh", "agent");
		const result = await runCli(box, ["--offline-demo", "-p", "hi"], {
			env: { TAU_CODING_AGENT_DIR: agentDir },
		});
		expect(result.code).toBe(0);
		const sessions = join(agentDir, "sessions");
		const [folder] = readdirSync(sessions);
		const [file] = readdirSync(join(sessions, folder!));
		expect(mode(agentDir)).toBe(0o700);
		expect(mode(sessions)).toBe(0o700);
		expect(mode(join(sessions, folder!))).toBe(0o700);
		expect(mode(join(sessions, folder!, file!))).toBe(0o600);
	});

	it("auth.json is created 0600 in a 0700 folder; rewrites keep the mode a file has", async () => {
		const box = sandbox();
		const path = join(box.home, "new-agent", "auth.json");
		const auth = AuthStorage.create(path);
		await auth.modify("anthropic", async () => ({ type: "api_key", key: "k1" }));
		expect(mode(path)).toBe(0o600);
		expect(mode(join(path, ".."))).toBe(0o700);
		// A mode the user set is theirs to keep (tau warns about group or world access at start).
		chmodSync(path, 0o640);
		await auth.modify("anthropic", async () => ({ type: "api_key", key: "k2" }));
		expect(mode(path)).toBe(0o640);
		const settings = join(box.agentDir, "settings.json");
		writeFileSync(settings, "{}\n");
		chmodSync(settings, 0o640);
		const manager = SettingsManager.create(box.project, box.agentDir);
		manager.setTheme("light");
		await manager.flush();
		expect(mode(settings)).toBe(0o640);
	});
});
