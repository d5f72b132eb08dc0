import { mergeClientIdentity } from "../identity/client-identity.js";
import type { AuthResult } from "../types/auth.js";
import type { ClientIdentity } from "../types/identity.js";
import type { Api, Model } from "../types/model.js";
import type { StreamOptions } from "../types/options.js";
import type { ModelsRequestTransforms } from "../types/provider.js";
import { mergeHeaders } from "../utils/headers.js";

/** What a provider receives: the model (with a resolved base URL) and options with auth applied. */
export interface PreparedRequest<TOptions> {
	model: Model<Api>;
	options: TOptions;
}

/**
 * The transform's result is final: a header it dropped is sent as `null`, so an adapter that applies
 * `model.headers` itself cannot bring it back.
 */
function suppressDropped(
	before: Record<string, string | null>,
	after: Record<string, string | null>,
): Record<string, string | null> {
	const kept = new Set(Object.keys(after).map((name) => name.toLowerCase()));
	const dropped = Object.keys(before).filter((name) => !kept.has(name.toLowerCase()));
	return { ...after, ...Object.fromEntries(dropped.map((name) => [name, null])) };
}

/**
 * Applies resolved auth to a request: key, base URL, headers (auth < model < request < transformHeaders),
 * env and identity. `transformHeaders` is consumed here; providers never see it.
 */
export async function prepareRequest<TOptions extends StreamOptions & ModelsRequestTransforms>(
	model: Model<Api>,
	auth: AuthResult,
	options: TOptions | undefined,
	defaultIdentity: ClientIdentity | undefined,
): Promise<PreparedRequest<Omit<TOptions, "transformHeaders">>> {
	const { transformHeaders, ...rest } = options ?? ({} as TOptions);
	const requestOptions = { ...rest } as Omit<TOptions, "transformHeaders"> & StreamOptions;
	const apiKey = rest.apiKey ?? auth.auth.apiKey;
	if (apiKey !== undefined) requestOptions.apiKey = apiKey;
	let headers = mergeHeaders(auth.auth.headers, model.headers, rest.headers);
	if (transformHeaders) headers = suppressDropped(headers, await transformHeaders(headers));
	if (Object.keys(headers).length > 0) requestOptions.headers = headers;
	else delete requestOptions.headers;
	if (auth.env || rest.env) requestOptions.env = { ...auth.env, ...rest.env };
	const identity = mergeClientIdentity(defaultIdentity, rest.identity);
	if (identity) requestOptions.identity = identity;
	const requestModel = auth.auth.baseUrl ? { ...model, baseUrl: auth.auth.baseUrl } : model;
	return { model: requestModel, options: requestOptions };
}
