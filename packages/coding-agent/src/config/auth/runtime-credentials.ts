import type { Credential, CredentialInfo, CredentialStore, CredentialStoreOptions } from "@tau/ai";

/**
 * In-memory API keys (CLI `--api-key`) layered over a credential store. Runtime keys shadow stored
 * credentials for reads and lists and are never persisted.
 */
export class RuntimeCredentials implements CredentialStore {
	private readonly runtimeKeys = new Map<string, string>();
	private readonly pending = new Set<Promise<unknown>>();

	constructor(readonly store: CredentialStore) {}

	setRuntimeApiKey(providerId: string, key: string): void {
		this.runtimeKeys.set(providerId, key);
	}

	removeRuntimeApiKey(providerId: string): void {
		this.runtimeKeys.delete(providerId);
	}

	hasRuntimeApiKey(providerId: string): boolean {
		return this.runtimeKeys.has(providerId);
	}

	async read(providerId: string, options?: CredentialStoreOptions): Promise<Credential | undefined> {
		const key = this.runtimeKeys.get(providerId);
		if (key !== undefined) return { type: "api_key", key };
		return this.store.read(providerId, options);
	}

	async list(options?: CredentialStoreOptions): Promise<readonly CredentialInfo[]> {
		const stored = (await this.store.list(options)).filter((entry) => !this.runtimeKeys.has(entry.providerId));
		const runtime = [...this.runtimeKeys.keys()].map((providerId) => ({ providerId, type: "api_key" as const }));
		return [...stored, ...runtime];
	}

	/** Delegates and tracks the write so `settled()` can wait for it (e.g. an OAuth refresh). */
	modify(
		providerId: string,
		fn: (current: Credential | undefined) => Promise<Credential | undefined>,
		options?: CredentialStoreOptions,
	): Promise<Credential | undefined> {
		const task = this.store.modify(providerId, fn, options);
		this.pending.add(task);
		const forget = () => this.pending.delete(task);
		task.then(forget, forget);
		return task;
	}

	async delete(providerId: string, options?: CredentialStoreOptions): Promise<void> {
		this.runtimeKeys.delete(providerId);
		await this.store.delete(providerId, options);
	}

	/**
	 * Resolves when every started modification has finished. Exit must wait for this: a refresh may
	 * already have consumed a single-use refresh token.
	 */
	async settled(): Promise<void> {
		while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
	}
}
