import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomicSync } from "../../core/fs/atomic-write.js";
import { lockSyncWithRetry } from "../fs/sync-lock.js";
import { getProjectConfigDir, makePrivateDir } from "../paths.js";
import type { SettingsScope } from "./types.js";

/**
 * Where settings text lives. `fn` receives the current text (undefined when missing) and returns
 * new text to write, or undefined for a read-only access; the call is one locked transaction.
 */
export interface SettingsStorage {
	withLock(scope: SettingsScope, fn: (current: string | undefined) => string | undefined): void;
	/** The file behind a scope, for diagnostics. */
	pathOf?(scope: SettingsScope): string | undefined;
}

/** `<agentDir>/settings.json` and `<cwd>/.tau/settings.json`, locked with proper-lockfile. */
export class FileSettingsStorage implements SettingsStorage {
	private readonly paths: Record<SettingsScope, string>;

	constructor(cwd: string, agentDir: string) {
		this.paths = {
			global: join(agentDir, "settings.json"),
			project: join(getProjectConfigDir(cwd), "settings.json"),
		};
	}

	pathOf(scope: SettingsScope): string {
		return this.paths[scope];
	}

	withLock(scope: SettingsScope, fn: (current: string | undefined) => string | undefined): void {
		const path = this.paths[scope];
		let release: (() => void) | undefined;
		try {
			// A read of a missing file takes no lock and creates nothing.
			let lockError: unknown;
			if (existsSync(path)) {
				try {
					release = lockSyncWithRetry(path);
				} catch (error) {
					// Writes replace the file atomically, so a read-only access may proceed unlocked.
					if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
					lockError = error;
				}
			}
			let next = fn(readIfExists(path));
			if (next === undefined) return;
			if (lockError) throw lockError;
			if (!release) {
				// The agent folder is private; a project's `.tau` folder is left to the project.
				if (scope === "global") makePrivateDir(dirname(path));
				else mkdirSync(dirname(path), { recursive: true });
				release = lockSyncWithRetry(path);
				// Another process may have created the file since the unlocked read.
				const current = readIfExists(path);
				if (current !== undefined) next = fn(current);
				if (next === undefined) return;
			}
			writeFileAtomicSync(path, next);
		} finally {
			release?.();
		}
	}
}

function readIfExists(path: string): string | undefined {
	try {
		return readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw error;
	}
}

/** Two string slots; the SDK/test backend that never touches the disk. */
export class InMemorySettingsStorage implements SettingsStorage {
	private readonly slots: Record<SettingsScope, string | undefined>;

	constructor(global?: string, project?: string) {
		this.slots = { global, project };
	}

	withLock(scope: SettingsScope, fn: (current: string | undefined) => string | undefined): void {
		const next = fn(this.slots[scope]);
		if (next !== undefined) this.slots[scope] = next;
	}

	pathOf(): undefined {
		return undefined;
	}
}
