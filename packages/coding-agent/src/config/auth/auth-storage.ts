import { readFileSync, statSync } from "node:fs";
import type { Credential, CredentialInfo, CredentialStore, CredentialStoreOptions } from "@tau/ai";
import { errorMessage, toError } from "../../core/errors.js";
import { JsonFileError } from "../fs/json-file.js";
import { type AuthFile, parseAuthFile, serializeAuthFile, validateAuthFile } from "./auth-file.js";
import {
	type AuthStorageBackend,
	defaultAuthPath,
	FileAuthStorageBackend,
	InMemoryAuthStorageBackend,
} from "./backend.js";
import { resolveConfigValue } from "./value-reference.js";

export interface AuthDiagnostic {
	type: "warning" | "error";
	message: string;
}

interface Snapshot {
	revision: string | undefined;
	data: AuthFile;
}

/** File-backed stores for one path share their last good snapshot. */
const sharedSnapshots = new Map<string, Snapshot>();

/**
 * auth.json as a `CredentialStore`: reads are cached by file revision, writes go through a locked
 * atomic read-modify-write, and `api_key` values (`$VAR`, `!command`) are resolved at read time.
 */
export class AuthStorage implements CredentialStore {
	private ownSnapshot: Snapshot = { revision: undefined, data: {} };
	private diagnostics: AuthDiagnostic[] = [];
	private readonly reportedUnresolved = new Set<string>();

	protected constructor(private readonly backend: AuthStorageBackend) {
		if (backend.path !== undefined) {
			const warning = checkAuthFilePermissions(backend.path);
			if (warning) this.diagnostics.push({ type: "warning", message: warning });
		}
	}

	static create(authPath: string = defaultAuthPath()): AuthStorage {
		return new AuthStorage(new FileAuthStorageBackend(authPath));
	}

	static fromStorage(backend: AuthStorageBackend): AuthStorage {
		return new AuthStorage(backend);
	}

	static inMemory(data: AuthFile = {}): AuthStorage {
		return new AuthStorage(new InMemoryAuthStorageBackend(serializeAuthFile(data)));
	}

	/** Re-reads the store; on any error the last valid snapshot stays and an error is recorded. */
	reload(): void {
		const revision = this.backend.revision?.();
		try {
			const path = this.backend.path;
			const data = this.backend.readCurrent
				? parseAuthFile(this.backend.readCurrent(), path)
				: this.backend.withLock((current) => ({ result: parseAuthFile(current, path) }));
			this.remember({ revision, data });
		} catch (error) {
			this.diagnostics.push({ type: "error", message: this.describe(error) });
			// Keep the last good data, but do not re-read (and re-report) the same broken revision.
			if (revision !== undefined) this.remember({ revision, data: this.snapshot().data });
		}
	}

	async read(providerId: string, _options?: CredentialStoreOptions): Promise<Credential | undefined> {
		const credential = this.latest()[providerId];
		if (credential?.type !== "api_key" || credential.key === undefined) return credential;
		const key = resolveConfigValue(credential.key, credential.env);
		if (key === undefined && !this.reportedUnresolved.has(providerId)) {
			this.reportedUnresolved.add(providerId);
			this.diagnostics.push({
				type: "warning",
				message: `auth.json entry for "${providerId}" did not resolve to a key; falling back to other sources`,
			});
		}
		return { ...credential, key };
	}

	async list(_options?: CredentialStoreOptions): Promise<readonly CredentialInfo[]> {
		return Object.entries(this.latest()).map(([providerId, credential]) => ({
			providerId,
			type: credential.type,
		}));
	}

	/** Locked read-modify-write; a file that does not parse throws and is not overwritten. */
	async modify(
		providerId: string,
		fn: (current: Credential | undefined) => Promise<Credential | undefined>,
		options: CredentialStoreOptions = {},
	): Promise<Credential | undefined> {
		return this.backend.withLockAsync(async (text) => {
			const data = parseAuthFile(text, this.backend.path);
			const next = await fn(data[providerId]);
			if (next === undefined) return { result: data[providerId] };
			const updated = { ...data, [providerId]: next };
			return { result: next, next: serializeAuthFile(updated) };
		}, options);
	}

	async delete(providerId: string, options: CredentialStoreOptions = {}): Promise<void> {
		await this.backend.withLockAsync(async (text) => {
			const data = parseAuthFile(text, this.backend.path);
			if (!(providerId in data)) return { result: undefined };
			const { [providerId]: _removed, ...rest } = data;
			return { result: undefined, next: serializeAuthFile(rest) };
		}, options);
	}

	/** Returns and clears warnings (wrong file mode, unresolved keys) and errors (unreadable file). */
	drainDiagnostics(): AuthDiagnostic[] {
		const drained = this.diagnostics;
		this.diagnostics = [];
		return drained;
	}

	private latest(): AuthFile {
		const revision = this.backend.revision?.();
		if (revision === undefined || revision !== this.snapshot().revision) this.reload();
		return this.snapshot().data;
	}

	private snapshot(): Snapshot {
		const path = this.backend.path;
		return (path === undefined ? undefined : sharedSnapshots.get(path)) ?? this.ownSnapshot;
	}

	private remember(snapshot: Snapshot): void {
		this.ownSnapshot = snapshot;
		if (this.backend.path !== undefined) sharedSnapshots.set(this.backend.path, snapshot);
	}

	private describe(error: unknown): string {
		// A file that does not parse is never rewritten: logins are refused until it is fixed.
		if (error instanceof JsonFileError) {
			return `Invalid credentials file ${error.message}; stored API keys and logins are not used until it is fixed`;
		}
		const where = this.backend.path === undefined ? "auth.json" : this.backend.path;
		return `Failed to read ${where}: ${errorMessage(error)}`;
	}
}

/** A warning when auth.json is readable or writable by group or others. */
export function checkAuthFilePermissions(path: string): string | undefined {
	if (process.platform === "win32") return undefined;
	try {
		const mode = statSync(path).mode & 0o777;
		if ((mode & 0o077) === 0) return undefined;
		return `${path} has permissions ${mode.toString(8).padStart(4, "0")}; credentials should be private (chmod 600 ${path})`;
	} catch {
		return undefined;
	}
}

/**
 * auth.json loaded once without a lock and validated strictly; it cannot write. Command keys are
 * returned unresolved. Used by `auth check --no-refresh`.
 */
export class ReadOnlyAuthStorage implements CredentialStore {
	private readonly data: AuthFile;

	constructor(path: string = defaultAuthPath()) {
		let text: string | undefined;
		try {
			text = readFileSync(path, "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw toError(error);
		}
		this.data = validateAuthFile(parseAuthFile(text, path));
	}

	async read(providerId: string): Promise<Credential | undefined> {
		return this.data[providerId];
	}

	async list(): Promise<readonly CredentialInfo[]> {
		return Object.entries(this.data).map(([providerId, credential]) => ({ providerId, type: credential.type }));
	}

	async modify(): Promise<Credential | undefined> {
		throw new Error("Read-only credential storage cannot modify auth.json");
	}

	async delete(): Promise<void> {
		throw new Error("Read-only credential storage cannot modify auth.json");
	}
}

/** One-off synchronous read of a stored credential without resolution; any error yields undefined. */
export function readStoredCredential(providerId: string, authPath: string = defaultAuthPath()): Credential | undefined {
	try {
		return parseAuthFile(readFileSync(authPath, "utf8"), authPath)[providerId];
	} catch {
		return undefined;
	}
}
