/**
 * Global setup of every package's tests: the run gets a fresh temporary HOME (with the XDG dirs, the
 * npm cache and so tau's agent dir below it), and loses the variables that point tau or pi at a
 * user's files or carry real credentials. So `npx vitest run` is as hermetic as `./test.sh` (which
 * also starts from an empty environment); test workers inherit this environment.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Names a test run must not inherit: agent and session dir overrides, credentials of providers and clouds. */
const INHERITED_BUT_UNSAFE =
	/^(TAU|PI)_CODING_AGENT_DIR$|^(TAU|PI)_.*SESSION_DIR$|_API_KEY$|_AUTH_TOKEN$|_ACCESS_TOKEN$|^GH_TOKEN$|^GITHUB_TOKEN$|^AWS_|^AZURE_|^GOOGLE_APPLICATION_CREDENTIALS$|^GOOGLE_CLOUD_/;

export default function setup(): () => void {
	const root = mkdtempSync(join(tmpdir(), "tau-vitest-"));
	const dirs = {
		HOME: join(root, "home"),
		XDG_CONFIG_HOME: join(root, "xdg-config"),
		XDG_DATA_HOME: join(root, "xdg-data"),
		XDG_CACHE_HOME: join(root, "xdg-cache"),
		XDG_STATE_HOME: join(root, "xdg-state"),
		npm_config_cache: join(root, "npm-cache"),
	};
	for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
	for (const name of Object.keys(process.env)) if (INHERITED_BUT_UNSAFE.test(name)) delete process.env[name];
	Object.assign(process.env, dirs);
	return () => rmSync(root, { recursive: true, force: true });
}
