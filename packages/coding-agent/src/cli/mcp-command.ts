import { getAgentDir } from "../config/paths.js";
import { ProjectTrustStore } from "../config/trust/trust-store.js";
import type { MainIO } from "./main-io.js";

/**
 * `tau mcp …` (docs/design/cli.md#mcp-command). Project `.tau/mcp.json` edits need a trusted project:
 * `-a`/`-na` decide for this process, else the saved decision; a subcommand never asks.
 */
export async function runMcpCommand(argv: readonly string[], io: MainIO): Promise<number> {
	const approve = argv.includes("-a") || argv.includes("--approve");
	const deny = argv.includes("-na") || argv.includes("--no-approve");
	const args = argv.filter((arg) => !["-a", "--approve", "-na", "--no-approve"].includes(arg));
	const cwd = process.cwd();
	const agentDir = getAgentDir();
	const projectTrusted = deny ? false : approve || new ProjectTrustStore(agentDir).get(cwd)?.decision === true;
	const { runMcpCli } = await import("../builtin/mcp/index.js");
	return runMcpCli(args, {
		cwd,
		agentDir,
		projectTrusted,
		env: process.env,
		stdout: io.stdout,
		stderr: io.stderr,
	});
}
