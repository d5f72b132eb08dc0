import { chmodSync, copyFileSync, existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";

const PI_CONFIG_FILES = ["settings.json", "models.json", "auth.json", "keybindings.json", "trust.json"];

export interface PiImportResult {
	copied: string[];
	/** Files that already exist in the tau agent dir (never overwritten). */
	skipped: string[];
}

/**
 * `tau config import-pi`: copies Pi's configuration files into the tau agent dir where tau has
 * none yet, keeping file modes (auth.json stays 0600).
 */
export function importPiConfig(piAgentDir: string, tauAgentDir: string): PiImportResult {
	const result: PiImportResult = { copied: [], skipped: [] };
	for (const name of PI_CONFIG_FILES) {
		const source = join(piAgentDir, name);
		if (!existsSync(source)) continue;
		const target = join(tauAgentDir, name);
		if (existsSync(target)) {
			result.skipped.push(name);
			continue;
		}
		mkdirSync(tauAgentDir, { recursive: true, mode: 0o700 });
		copyFileSync(source, target);
		const mode = statSync(source).mode & 0o777;
		chmodSync(target, name === "auth.json" ? mode & 0o600 : mode);
		result.copied.push(name);
	}
	return result;
}
