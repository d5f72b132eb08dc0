import type { AuthCheck, Models } from "@tau/ai";

/**
 * Which providers have usable credentials, per the last check of each, and for a provider that
 * narrows its models by credential (`filterModels`: a GitHub Copilot seat), which models. Checks of
 * one provider run one after another; a result superseded by a newer check of the same provider is
 * discarded, so the synchronous readers (`/model`, `--list-models`, the footer, initial model
 * selection) see the latest answer.
 */
export class ProviderAvailability {
	private readonly checks = new Map<string, AuthCheck>();
	private readonly usableModels = new Map<string, ReadonlySet<string>>();
	private readonly seq = new Map<string, number>();
	private readonly chains = new Map<string, Promise<void>>();

	constructor(private readonly models: Pick<Models, "checkAuth" | "getAvailable" | "getProvider">) {}

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
		this.usableModels.delete(providerId);
	}

	/** The ids of the provider's models its credential can use, when the provider narrows them; else undefined (all). */
	usable(providerId: string): ReadonlySet<string> | undefined {
		return this.usableModels.get(providerId);
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
			let usable: ReadonlySet<string> | undefined;
			try {
				check = await this.models.checkAuth(id);
				if (check && this.models.getProvider(id)?.filterModels) {
					usable = new Set((await this.models.getAvailable(id)).map((model) => model.id));
				}
			} catch {
				check = undefined;
			}
			if (this.seq.get(id) !== seq) return;
			if (check) this.checks.set(id, check);
			else this.checks.delete(id);
			if (usable) this.usableModels.set(id, usable);
			else this.usableModels.delete(id);
		});
		this.chains.set(id, next);
		return next;
	}
}
