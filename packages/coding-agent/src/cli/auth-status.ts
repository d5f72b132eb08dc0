import type { AuthResult, Credential, CredentialInfo, CredentialStore, Model, Provider } from "@tau/ai";
import { APP_NAME } from "../config/app-identity.js";
import {
	type ModelRuntime,
	parseConfigValue,
	type ReadOnlyAuthStorage,
	resolveConfigValue,
	resolveConfigValueOrThrow,
	resolveModelReference,
} from "../config/index.js";

/** What `tau auth check` reports (docs/design/cli.md#auth-command); exit codes 0, 1 and 2 in this order. */
export type AuthStatus = "ready" | "not_ready" | "invalid";

/** The resolved request auth of a ready provider, as `--credentials` prints it. */
export interface ReadyCredentials {
	source?: string;
	apiKey?: string;
	headers?: Record<string, string | null>;
	baseUrl?: string;
	/** Epoch ms at which a stored OAuth access token expires. */
	expires?: number;
}

export interface AuthReport {
	status: AuthStatus;
	/** The provider checked; `null` when a `--model` could not be tied to one. */
	provider: string | null;
	reason?: string;
	credentials?: ReadyCredentials;
}

export interface AuthTargetOptions {
	provider?: string;
	model?: string;
}

/** The provider (and model, with `--model`) whose credentials a command is about. */
export interface AuthTarget {
	provider: Provider;
	model?: Model;
}

const invalid = (provider: string | null, reason: string): AuthReport => ({ status: "invalid", provider, reason });

/** `--provider` (case-insensitive id) and/or an exact `--model` reference (`provider/id` or bare id). */
export function resolveAuthTarget(runtime: ModelRuntime, options: AuthTargetOptions): AuthTarget | AuthReport {
	const providers = runtime.models.getProviders();
	let provider: Provider | undefined;
	if (options.provider !== undefined) {
		const wanted = options.provider.toLowerCase();
		provider = providers.find((candidate) => candidate.id.toLowerCase() === wanted);
		if (!provider) return invalid(options.provider, `Unknown provider "${options.provider}"`);
	}
	if (options.model === undefined) return { provider: provider! };
	const result = resolveModelReference(options.model, runtime.getModels(), {
		...(provider ? { provider: provider.id } : {}),
		thinkingSuffix: "strict",
		fuzzy: false,
		usable: () => false,
	});
	if (result.kind === "resolved") {
		const owner = providers.find((candidate) => candidate.id === result.model.provider)!;
		return { provider: owner, model: result.model };
	}
	if (result.kind === "ambiguous") {
		const names = result.candidates.map((model) => `${model.provider}/${model.id}`).sort();
		return invalid(
			provider?.id ?? null,
			`Model "${options.model}" matches several providers: ${names.join(", ")}. Use --provider or provider/model.`,
		);
	}
	return invalid(provider?.id ?? result.target?.provider ?? null, `Model "${options.model}" not found`);
}

/** Why a stored `api_key` reference resolves to nothing, or undefined when it resolves. */
function unresolvedKeyReason(providerId: string, credential: Credential): string | undefined {
	if (credential.type !== "api_key" || credential.key === undefined) return undefined;
	// The cached resolver is the one requests use, so a failing `!command` is not run a second time.
	if (resolveConfigValue(credential.key, credential.env) !== undefined) return undefined;
	const description = `the auth.json API key of "${providerId}"`;
	const reference = parseConfigValue(credential.key);
	if (reference.kind === "command") return `Failed to resolve ${description} from shell command: ${reference.command}`;
	try {
		resolveConfigValueOrThrow(credential.key, description, credential.env);
		return `Failed to resolve ${description}`;
	} catch (error) {
		return (error as Error).message;
	}
}

/** An error with its causes, e.g. `OAuth refresh failed for p: invalid_grant`. */
function describeError(error: unknown): string {
	const parts: string[] = [];
	let current: unknown = error;
	while (current instanceof Error && parts.length < 4) {
		if (current.message && !parts.includes(current.message)) parts.push(current.message);
		current = current.cause;
	}
	return parts.length > 0 ? parts.join(": ") : String(error);
}

function readyReport(providerId: string, result: AuthResult, stored: Credential | undefined): AuthReport {
	const credentials: ReadyCredentials = {
		...(result.source !== undefined ? { source: result.source } : {}),
		...result.auth,
		...(stored?.type === "oauth" ? { expires: stored.expires } : {}),
	};
	return { status: "ready", provider: providerId, credentials };
}

/**
 * The auth status of a target. `stored` is the strictly validated auth.json entry. `invalid`: a
 * stored entry the provider cannot use (its `$VAR`/`!command` key does not resolve, or its type is
 * not supported), or resolution failed (OAuth refresh, header references). `not_ready`: no source
 * at all, or (with `noRefresh`) only an expired OAuth token.
 */
export async function evaluateAuth(
	runtime: ModelRuntime,
	target: AuthTarget,
	stored: Credential | undefined,
	options: { noRefresh: boolean; minValidityMs?: number },
): Promise<AuthReport> {
	const { provider } = target;
	const id = provider.id;
	if (stored) {
		const supported = stored.type === "oauth" ? provider.auth.oauth : provider.auth.apiKey;
		if (!supported) {
			const kind = stored.type === "oauth" ? "an OAuth login" : "an API key";
			return invalid(id, `auth.json holds ${kind} for "${id}", which this provider does not support`);
		}
		const unresolved = unresolvedKeyReason(id, stored);
		if (unresolved) return invalid(id, unresolved);
	}
	if (options.noRefresh && stored?.type === "oauth") {
		if (Date.now() >= stored.expires) {
			return {
				status: "not_ready",
				provider: id,
				reason: `The OAuth token of "${id}" expired at ${new Date(stored.expires).toISOString()} (not refreshed: --no-refresh)`,
			};
		}
		try {
			return readyReport(id, { auth: await provider.auth.oauth!.toAuth(stored), source: "OAuth" }, stored);
		} catch (error) {
			return invalid(id, `OAuth auth derivation failed for ${id}: ${describeError(error)}`);
		}
	}
	let result: AuthResult | undefined;
	try {
		result = await runtime.models.getAuth(
			target.model ?? id,
			options.minValidityMs !== undefined ? { minOAuthValidityMs: options.minValidityMs } : undefined,
		);
	} catch (error) {
		return invalid(id, describeError(error));
	}
	if (!result) {
		return {
			status: "not_ready",
			provider: id,
			reason: `No credentials for "${id}": run "${APP_NAME} auth login ${id}" or set its API key in the environment`,
		};
	}
	// After a refresh the store holds the new token; report its expiry, not the stale one.
	const current = stored?.type === "oauth" ? await runtime.credentials.read(id) : stored;
	return readyReport(id, result, current);
}

/**
 * auth.json through the strict read-only store, with `api_key` references resolved like
 * `AuthStorage` does, so `--no-refresh` checks the same keys without ever writing.
 */
export class ResolvingReadOnlyStore implements CredentialStore {
	constructor(private readonly store: ReadOnlyAuthStorage) {}

	async read(providerId: string): Promise<Credential | undefined> {
		const credential = await this.store.read(providerId);
		if (credential?.type !== "api_key" || credential.key === undefined) return credential;
		return { ...credential, key: resolveConfigValue(credential.key, credential.env) };
	}

	list(): Promise<readonly CredentialInfo[]> {
		return this.store.list();
	}

	modify(): Promise<Credential | undefined> {
		return this.store.modify();
	}

	delete(): Promise<void> {
		return this.store.delete();
	}
}
