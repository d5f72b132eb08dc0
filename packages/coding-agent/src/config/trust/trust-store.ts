import { readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { errorMessage } from "../../core/errors.js";
import { writeFileAtomicSync } from "../../core/fs/atomic-write.js";
import { parseJsonFile } from "../fs/json-file.js";
import { isPlainObject } from "../fs/json-text.js";
import { lockSyncWithRetry } from "../fs/sync-lock.js";
import { makePrivateDir } from "../paths.js";

export type TrustValue = boolean | null;
export type TrustFile = Record<string, TrustValue>;

export interface SavedTrustDecision {
	/** The key (a canonical directory path) that decided. */
	path: string;
	decision: boolean;
}

export interface TrustUpdate {
	path: string;
	/** `null` removes any entry for the path. */
	decision: boolean | null;
}

export interface TrustStoreOptions {
	/** Platform whose path rules apply (case-insensitive keys on Windows). */
	platform?: NodeJS.Platform;
}

/**
 * `<agentDir>/trust.json`: saved project-trust decisions keyed by canonical directory. Every access
 * holds `trust.json.lock`; writes are sorted, boolean-only and atomic. A corrupt store reads as
 * "undecided" (with a diagnostic) and is never overwritten.
 */
export class ProjectTrustStore {
	readonly path: string;
	private readonly lockPath: string;
	private readonly platform: NodeJS.Platform;
	private diagnostics: string[] = [];

	constructor(
		private readonly agentDir: string,
		options: TrustStoreOptions = {},
	) {
		this.path = join(agentDir, "trust.json");
		this.lockPath = join(agentDir, "trust.json.lock");
		this.platform = options.platform ?? process.platform;
	}

	/** The saved decision for `cwd` or its nearest ancestor; null when undecided or unreadable. */
	get(cwd: string): SavedTrustDecision | null {
		let data: TrustFile;
		try {
			data = this.withLock(() => this.read());
		} catch (error) {
			this.diagnostics.push(errorMessage(error));
			return null;
		}
		let dir = this.canonical(cwd);
		for (;;) {
			for (const [key, decision] of Object.entries(data)) {
				if (typeof decision === "boolean" && this.samePath(key, dir)) return { path: key, decision };
			}
			const parent = dirname(dir);
			if (parent === dir) return null;
			dir = parent;
		}
	}

	set(cwd: string, decision: boolean | null): void {
		this.setMany([{ path: cwd, decision }]);
	}

	/** Applies updates under one lock; throws (without writing) when the store is corrupt. */
	setMany(updates: readonly TrustUpdate[]): void {
		this.withLock(() => {
			const data = this.read();
			for (const update of updates) {
				const path = this.canonical(update.path);
				for (const key of Object.keys(data)) if (this.samePath(key, path)) delete data[key];
				if (update.decision !== null) data[path] = update.decision;
			}
			const sorted: Record<string, boolean> = {};
			for (const key of Object.keys(data).sort()) {
				const value = data[key];
				if (typeof value === "boolean") sorted[key] = value;
			}
			makePrivateDir(this.agentDir);
			writeFileAtomicSync(this.path, `${JSON.stringify(sorted, null, 2)}\n`);
		});
	}

	/** Like `setMany`, but a failure (corrupt store, lock timeout) becomes a diagnostic. */
	trySetMany(updates: readonly TrustUpdate[]): boolean {
		try {
			this.setMany(updates);
			return true;
		} catch (error) {
			this.diagnostics.push(errorMessage(error));
			return false;
		}
	}

	/** Returns and clears error messages about an unreadable store. */
	drainDiagnostics(): string[] {
		const drained = this.diagnostics;
		this.diagnostics = [];
		return drained;
	}

	/** `realpath` of the resolved path, or the resolved path when it does not exist. */
	canonical(path: string): string {
		const resolved = resolve(path);
		try {
			return realpathSync(resolved);
		} catch {
			return resolved;
		}
	}

	private samePath(a: string, b: string): boolean {
		return this.platform === "win32" ? a.toLowerCase() === b.toLowerCase() : a === b;
	}

	private read(): TrustFile {
		let text: string;
		try {
			text = readFileSync(this.path, "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
			throw new Error(`Failed to read trust store ${this.path}: ${errorMessage(error)}`);
		}
		let parsed: unknown;
		try {
			parsed = parseJsonFile(this.path, text);
		} catch (error) {
			// The message is `<file>:<line>:<column>: <what>`.
			throw new Error(`Failed to read trust store ${errorMessage(error)}`);
		}
		if (!isPlainObject(parsed)) throw new Error(`Invalid trust store ${this.path}: expected an object`);
		for (const [key, value] of Object.entries(parsed)) {
			if (value !== true && value !== false && value !== null) {
				throw new Error(`Invalid trust store ${this.path}: value for "${key}" must be true, false, or null`);
			}
		}
		return parsed as TrustFile;
	}

	private withLock<T>(fn: () => T): T {
		makePrivateDir(this.agentDir);
		const release = lockSyncWithRetry(this.agentDir, { lockfilePath: this.lockPath });
		try {
			return fn();
		} finally {
			release();
		}
	}
}
