import { resolve } from "node:path";
import { APP_NAME } from "../config/app-identity.js";
import { getAgentDir } from "../config/paths.js";
import type { MainIO } from "./main-io.js";

const USAGE = `Usage: ${APP_NAME} sessions import-pi [--cwd <dir>] [--all] [--dry-run]`;

/** `tau sessions import-pi` (docs/design/cli.md#importing-pi-sessions): copies Pi sessions into tau's session tree. */
export async function runSessionsCommand(argv: readonly string[], io: MainIO): Promise<number> {
	const [subcommand, ...rest] = argv;
	if (subcommand !== "import-pi") {
		io.stderr(`${subcommand ? `Unknown subcommand "${subcommand}".\n` : ""}${USAGE}\n`);
		return subcommand ? 1 : 0;
	}
	let cwd = process.cwd();
	let all = false;
	let dryRun = false;
	for (let i = 0; i < rest.length; i++) {
		const arg = rest[i]!;
		if (arg === "--all") all = true;
		else if (arg === "--dry-run") dryRun = true;
		else if (arg === "--cwd" && rest[i + 1] !== undefined) cwd = resolve(rest[++i]!);
		else {
			io.stderr(`Unknown option ${arg} for "sessions import-pi".\n${USAGE}\n`);
			return 1;
		}
	}
	const { importPiSessions } = await import("../core/session/index.js");
	try {
		const report = importPiSessions({ agentDir: getAgentDir(), cwd, all, dryRun });
		const verb = dryRun ? "Would import" : "Imported";
		io.stdout(
			`${verb} ${report.imported.length}, skipped ${report.skipped.length} (already imported), invalid ${report.invalid.length}\n`,
		);
		return 0;
	} catch (error) {
		io.stderr(`Error: ${(error as Error).message}\n`);
		return 1;
	}
}
