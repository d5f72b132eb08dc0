import { chmodSync, constants, copyFileSync, existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { expandTilde } from "../../config/paths.js";
import { findSessionById } from "./listing.js";
import { loadSessionFile, readSessionHeader } from "./loader.js";
import { getDefaultSessionDirPath, samePath } from "./location.js";
import { headerVersion, migrateSessionEntries } from "./migrate.js";
import { rewriteMigratedFile } from "./rewrite.js";
import { makeSessionDir, SESSION_FILE_MODE } from "./storage.js";

export interface PiImportOptions {
	/** tau agent dir receiving the copies. */
	agentDir: string;
	/** Pi sessions root; default `$PI_CODING_AGENT_DIR/sessions` or `~/.pi/agent/sessions`. */
	piSessionsRoot?: string;
	/** Only sessions whose header cwd equals this dir (ignored with `all`). */
	cwd?: string;
	all?: boolean;
	dryRun?: boolean;
	env?: NodeJS.ProcessEnv;
}

export interface PiImportReport {
	imported: string[];
	/** Sessions whose id already exists in the destination (`already imported`). */
	skipped: string[];
	invalid: string[];
}

export function getPiSessionsRoot(env: NodeJS.ProcessEnv = process.env): string {
	const dir = env.PI_CODING_AGENT_DIR;
	return dir && dir.trim() !== "" ? join(expandTilde(dir), "sessions") : join(homedir(), ".pi", "agent", "sessions");
}

function candidates(root: string): string[] {
	const files: string[] = [];
	let dirs: string[];
	try {
		dirs = readdirSync(root);
	} catch {
		return files;
	}
	for (const name of dirs) {
		const dir = join(root, name);
		if (name.endsWith(".jsonl")) files.push(dir);
		else {
			try {
				for (const file of readdirSync(dir)) if (file.endsWith(".jsonl")) files.push(join(dir, file));
			} catch {
				// Not a directory.
			}
		}
	}
	return files.sort();
}

/** Copies pi sessions into tau's session tree (never moving or modifying a source); v1/v2 copies are migrated. */
export function importPiSessions(options: PiImportOptions): PiImportReport {
	const report: PiImportReport = { imported: [], skipped: [], invalid: [] };
	for (const source of candidates(options.piSessionsRoot ?? getPiSessionsRoot(options.env))) {
		const header = readSessionHeader(source);
		if (!header || typeof header.cwd !== "string" || header.cwd === "") {
			report.invalid.push(source);
			continue;
		}
		if (!options.all && options.cwd !== undefined && !samePath(header.cwd, options.cwd)) continue;
		const destinationDir = getDefaultSessionDirPath(header.cwd, options.agentDir);
		if (findSessionById(destinationDir, header.id)) {
			report.skipped.push(source);
			continue;
		}
		const target = join(destinationDir, basename(source));
		if (options.dryRun) {
			report.imported.push(target);
			continue;
		}
		if (existsSync(target)) {
			report.skipped.push(source);
			continue;
		}
		copyToDestination(source, target);
		report.imported.push(target);
	}
	return report;
}

function copyToDestination(source: string, target: string): void {
	makeSessionDir(dirname(target));
	copyFileSync(source, target, constants.COPYFILE_EXCL);
	chmodSync(target, SESSION_FILE_MODE);
	const loaded = loadSessionFile(target);
	const version = headerVersion(loaded.entries);
	if (version < 3) {
		migrateSessionEntries(loaded.entries);
		rewriteMigratedFile(target, version, loaded.entries, loaded.rawLines);
	}
}
