import { homedir } from "node:os";
import { ProjectTrustStore, resolveProjectTrusted, SettingsManager } from "../config/index.js";

export interface CommandTrustOptions {
	cwd: string;
	agentDir: string;
	/** `-a/--approve` (true) or `-na/--no-approve` (false). */
	approve?: boolean;
	/** Whether an undecided project may be asked about on a terminal (docs/design/resources.md#when-trust-is-decided). */
	mayAsk: boolean;
}

/**
 * Trust for a subcommand (docs/design/resources.md#when-trust-is-decided): the flag, else the saved decision, else trusted when
 * the project has nothing to decide about. Commands that may ask run the startup decision order
 * (policy, then the prompt when stdin and stdout are terminals).
 */
export async function resolveCommandTrust(options: CommandTrustOptions): Promise<boolean> {
	const { cwd, agentDir, approve } = options;
	const { hasTrustRequiringProjectResources } = await import("../core/resources/index.js");
	const store = new ProjectTrustStore(agentDir);
	const hasTrustRequiringResources = hasTrustRequiringProjectResources(cwd, homedir());
	if (!options.mayAsk) return approve ?? store.get(cwd)?.decision ?? !hasTrustRequiringResources;
	const userSettings = SettingsManager.create(cwd, agentDir, { projectTrusted: false });
	const terminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
	const decision = await resolveProjectTrusted({
		cwd,
		store,
		...(approve !== undefined ? { cliOverride: approve } : {}),
		hasTrustRequiringResources,
		defaultProjectTrust: userSettings.getDefaultProjectTrust(),
		...(terminal
			? {
					prompt: async (prompt) => {
						const { askProjectTrust } = await import("../modes/interactive/trust-prompt.js");
						return askProjectTrust(prompt);
					},
				}
			: {}),
	});
	return decision.trusted;
}
