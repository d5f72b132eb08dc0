import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { errorMessage } from "../../core/errors.js";
import { writeFileAtomicSync } from "../../core/fs/atomic-write.js";
import { readSessionHeader } from "../../core/session/loader.js";
import { getDefaultSessionDirPath } from "../../core/session/location.js";
import { JsonFileError, parseJsonFile } from "../fs/json-file.js";
import { isPlainObject } from "../fs/json-text.js";
import { getProjectConfigDir } from "../paths.js";

export interface StartupMigrationResult {
	/** Providers whose credentials moved into auth.json (for a one-time notice). */
	migratedProviders: string[];
	warnings: string[];
}

const MANAGED_BINARIES = ["fd", "rg", "fd.exe", "rg.exe"];

/**
 * Once-per-start upgrades of an older agent directory. Best effort: a failing step becomes a
 * warning, never an error; every file rewrite is a temp file plus rename.
 */
export function runStartupMigrations(agentDir: string, cwd: string): StartupMigrationResult {
	const result: StartupMigrationResult = { migratedProviders: [], warnings: [] };
	const step = (name: string, run: () => void) => {
		try {
			run();
		} catch (error) {
			result.warnings.push(`Migration "${name}" failed: ${errorMessage(error)}`);
		}
	};
	step("credentials", () => result.migratedProviders.push(...migrateCredentials(agentDir)));
	step("sessions", () => moveLooseSessions(agentDir));
	step("binaries", () => moveManagedBinaries(agentDir));
	step("prompts", () => {
		renameCommandsToPrompts(agentDir);
		renameCommandsToPrompts(getProjectConfigDir(cwd));
	});
	result.warnings.push(...deprecationWarnings(agentDir, cwd));
	return result;
}

function readJsonObject(path: string): Record<string, unknown> | undefined {
	if (!existsSync(path)) return undefined;
	const parsed = parseJsonFile(path, readFileSync(path, "utf8"));
	return isPlainObject(parsed) ? parsed : undefined;
}

/** settings.json for its legacy keys; a broken file is left alone here (the settings loader reports it). */
function readSettingsIfValid(path: string): Record<string, unknown> | undefined {
	try {
		return readJsonObject(path);
	} catch (error) {
		if (error instanceof JsonFileError) return undefined;
		throw error;
	}
}

/** Legacy `oauth.json` and settings `apiKeys` move into a new auth.json (0600). */
function migrateCredentials(agentDir: string): string[] {
	const authPath = join(agentDir, "auth.json");
	if (existsSync(authPath)) return [];
	const credentials: Record<string, unknown> = {};
	const oauthPath = join(agentDir, "oauth.json");
	const oauth = readJsonObject(oauthPath);
	for (const [provider, value] of Object.entries(oauth ?? {})) {
		if (isPlainObject(value)) credentials[provider] = { type: "oauth", ...value };
	}
	const settingsPath = join(agentDir, "settings.json");
	const settings = readSettingsIfValid(settingsPath);
	const apiKeys = settings?.apiKeys;
	if (isPlainObject(apiKeys)) {
		for (const [provider, key] of Object.entries(apiKeys)) {
			if (typeof key === "string") credentials[provider] = { type: "api_key", key };
		}
	}
	const providers = Object.keys(credentials);
	if (providers.length === 0) return [];
	mkdirSync(agentDir, { recursive: true, mode: 0o700 });
	writeFileAtomicSync(authPath, JSON.stringify(credentials, null, 2), { newFileMode: 0o600 });
	if (oauth) renameSync(oauthPath, `${oauthPath}.migrated`);
	if (settings && isPlainObject(apiKeys)) {
		delete settings.apiKeys;
		writeFileAtomicSync(settingsPath, `${JSON.stringify(settings, null, 2)}\n`);
	}
	return providers;
}

/** `*.jsonl` sessions lying directly in the agent dir go to `sessions/<encoded cwd>/`. */
function moveLooseSessions(agentDir: string): void {
	if (!existsSync(agentDir)) return;
	for (const name of readdirSync(agentDir)) {
		if (!name.endsWith(".jsonl")) continue;
		const source = join(agentDir, name);
		const header = readSessionHeader(source);
		if (!header?.cwd) continue;
		const targetDir = getDefaultSessionDirPath(header.cwd, agentDir);
		const target = join(targetDir, name);
		if (existsSync(target)) continue;
		mkdirSync(targetDir, { recursive: true });
		renameSync(source, target);
	}
}

/** Managed `fd`/`rg` binaries moved from `tools/` to `bin/`. */
function moveManagedBinaries(agentDir: string): void {
	const toolsDir = join(agentDir, "tools");
	const binDir = join(agentDir, "bin");
	for (const name of MANAGED_BINARIES) {
		const source = join(toolsDir, name);
		if (!existsSync(source)) continue;
		const target = join(binDir, name);
		if (existsSync(target)) {
			rmSync(source, { force: true });
			continue;
		}
		mkdirSync(binDir, { recursive: true });
		renameSync(source, target);
	}
}

function renameCommandsToPrompts(dir: string): void {
	const commands = join(dir, "commands");
	const prompts = join(dir, "prompts");
	if (existsSync(commands) && !existsSync(prompts)) renameSync(commands, prompts);
}

function deprecationWarnings(agentDir: string, cwd: string): string[] {
	const warnings: string[] = [];
	for (const dir of [agentDir, getProjectConfigDir(cwd)]) {
		const hooks = join(dir, "hooks");
		if (existsSync(hooks))
			warnings.push(`${hooks} is no longer loaded: hooks are now extensions (move them to extensions/)`);
		const tools = join(dir, "tools");
		if (!existsSync(tools)) continue;
		const custom = readdirSync(tools).filter((name) => !name.startsWith(".") && !MANAGED_BINARIES.includes(name));
		if (custom.length > 0) {
			warnings.push(`${tools} is no longer loaded: custom tools are now extensions (move them to extensions/)`);
		}
	}
	return warnings;
}
