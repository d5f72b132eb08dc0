import { SettingsManager } from "../config/index.js";
import { getAgentDir } from "../config/paths.js";
import { resolveCommandTrust } from "./command-trust.js";

export interface PackageCommandLocation {
	cwd?: string;
	agentDir?: string;
}

/**
 * The settings a package command works with, after the trust decision (docs/design/resources.md#when-trust-is-decided): `list`
 * and project-scope (`-l`) changes may ask on a terminal, `update` and user-scope changes never do.
 */
export async function openPackageSettings(
	options: { approve?: boolean; mayAsk: boolean },
	location: PackageCommandLocation = {},
) {
	const cwd = location.cwd ?? process.cwd();
	const agentDir = location.agentDir ?? getAgentDir();
	const trusted = await resolveCommandTrust({
		cwd,
		agentDir,
		...(options.approve !== undefined ? { approve: options.approve } : {}),
		mayAsk: options.mayAsk,
	});
	const settings = SettingsManager.create(cwd, agentDir, { projectTrusted: trusted });
	return { cwd, agentDir, settings };
}
