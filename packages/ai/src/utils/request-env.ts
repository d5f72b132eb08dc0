import type { ProviderRequestOptions } from "../types/options.js";

/** An env value for a request: the request-scoped env (auth and caller overrides) wins over `process.env`. */
export function requestEnv(name: string, options: Pick<ProviderRequestOptions, "env"> | undefined): string | undefined {
	const value = options?.env?.[name] ?? process.env[name];
	return value === "" ? undefined : value;
}
