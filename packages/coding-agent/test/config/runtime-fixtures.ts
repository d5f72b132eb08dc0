import {
	createProvider,
	envApiKeyAuth,
	fauxAssistantMessage,
	fauxProvider,
	keylessAuth,
	type OAuthAuth,
	type OAuthCredential,
	type Provider,
	type SimpleStreamOptions,
} from "@tau/ai";

/** A built-in-like provider on the faux API that records the options of every request. */
export function recordingProvider(
	id: string,
	options: { envVars?: string[]; keyless?: boolean; oauth?: OAuthAuth; modelIds?: string[] } = {},
): { provider: Provider; requests: (SimpleStreamOptions | undefined)[] } {
	const requests: (SimpleStreamOptions | undefined)[] = [];
	const faux = fauxProvider({
		provider: id,
		models: (options.modelIds ?? [`${id}-model`]).map((modelId) => ({ id: modelId })),
	});
	const reply = () =>
		faux.appendResponses([
			(_context, requestOptions) => {
				requests.push(requestOptions);
				reply();
				return fauxAssistantMessage("ok");
			},
		]);
	reply();
	const provider = createProvider({
		id,
		name: id.toUpperCase(),
		auth: {
			...(options.envVars ? { apiKey: envApiKeyAuth(id, options.envVars) } : {}),
			...(options.keyless ? { apiKey: keylessAuth(id) } : {}),
			...(options.oauth ? { oauth: options.oauth } : {}),
		},
		models: faux.models.map((model) => ({ ...model, provider: id })),
		api: faux.provider as never,
	});
	return { provider, requests };
}

/** A fake OAuth implementation whose refresh can be gated and counted. */
export function fakeOAuth(
	refresh: (credential: OAuthCredential, signal: AbortSignal) => Promise<OAuthCredential>,
): OAuthAuth {
	return {
		name: "Fake OAuth",
		login: async () => {
			throw new Error("interactive login is not part of these tests");
		},
		refresh,
		toAuth: async (credential) => ({ apiKey: credential.access }),
	};
}
