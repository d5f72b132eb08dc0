import type { AuthCheck, Models } from "@tau/ai";

/**
 * Which providers have usable credentials, per the last check of each. Checks of one provider run
 * one after another; a result superseded by a newer check of the same provider is discarded, so the
 * synchronous readers (`/model`, the footer, initial model selection) see the latest answer.
 */
export class ProviderAvailability {
	private readonly checks = new Map<string, AuthCheck>();
	private readonly seq = new Map<string, number>();
	private readonly chains = new Map<string, Promise<void>>();

	constructor(private readonly models: Pick<Models, "checkAuth">) {}

	has(providerId: string): boolean {
		return this.checks.has(providerId);
	}

	/** The last successful check (its auth type and where the credential came from). */
	check(providerId: string): AuthCheck | undefined {
		return this.checks.get(providerId);
	}

	/** Marks a provider usable before its check finishes (providers without credentials, like virtual ones). */
	assume(providerId: string, check: AuthCheck): void {
		if (!this.checks.has(providerId)) this.checks.set(providerId, check);
	}

	forget(providerId: string): void {
		this.checks.delete(providerId);
	}

	refresh(providerIds: readonly string[]): Promise<void> {
		return Promise.all(providerIds.map((id) => this.refreshOne(id))).then(() => {});
	}

	private refreshOne(id: string): Promise<void> {
		const seq = (this.seq.get(id) ?? 0) + 1;
		this.seq.set(id, seq);
		const previous = this.chains.get(id) ?? Promise.resolve();
		const next = previous.then(async () => {
			let check: AuthCheck | undefined;
			try {
				check = await this.models.checkAuth(id);
			} catch {
				check = undefined;
			}
			if (this.seq.get(id) !== seq) return;
			if (check) this.checks.set(id, check);
			else this.checks.delete(id);
		});
		this.chains.set(id, next);
		return next;
	}
}
