import type { Credential, CredentialInfo, CredentialStore, CredentialStoreOptions } from "../types/auth.js";
import { raceSignal } from "../utils/abort.js";

/**
 * The default credential store: a map behind a per-provider promise chain. A task holds the chain until it
 * settles, so overlapping `modify` calls observe each other's writes.
 */
export class InMemoryCredentialStore implements CredentialStore {
	private readonly credentials = new Map<string, Credential>();
	private readonly chains = new Map<string, Promise<unknown>>();

	constructor(initial?: Record<string, Credential>) {
		for (const [id, credential] of Object.entries(initial ?? {}))
			this.credentials.set(id, structuredClone(credential));
	}

	async read(providerId: string): Promise<Credential | undefined> {
		const credential = this.credentials.get(providerId);
		return credential && structuredClone(credential);
	}

	async list(): Promise<readonly CredentialInfo[]> {
		return [...this.credentials].map(([providerId, credential]) => ({ providerId, type: credential.type }));
	}

	modify(
		providerId: string,
		fn: (current: Credential | undefined) => Promise<Credential | undefined>,
		options?: CredentialStoreOptions,
	): Promise<Credential | undefined> {
		return this.serialize(
			providerId,
			async () => {
				const next = await fn(await this.read(providerId));
				if (next !== undefined) this.credentials.set(providerId, structuredClone(next));
				return this.read(providerId);
			},
			options?.signal,
		);
	}

	delete(providerId: string, options?: CredentialStoreOptions): Promise<void> {
		return this.serialize(
			providerId,
			async () => {
				this.credentials.delete(providerId);
			},
			options?.signal,
		);
	}

	/** The caller's signal cancels only the wait for the lock; a task that started runs to completion. */
	private serialize<T>(providerId: string, task: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
		const previous = this.chains.get(providerId) ?? Promise.resolve();
		const run = previous.then(() => {
			if (signal?.aborted) throw signal.reason;
			return task();
		});
		const settled = run.catch(() => {});
		this.chains.set(providerId, settled);
		void settled.then(() => {
			if (this.chains.get(providerId) === settled) this.chains.delete(providerId);
		});
		return raceSignal(run, signal);
	}
}
