/** What auth adds to a request: an API key, headers, or a different base URL. */
export interface ModelAuth {
	apiKey?: string;
	headers?: Record<string, string | null>;
	baseUrl?: string;
}

/** A stored API-key credential: the key itself, or environment values the provider's auth reads. */
export interface ApiKeyCredential {
	type: "api_key";
	key?: string;
	env?: Record<string, string>;
}

/** OAuth tokens as stored: access and refresh token, expiry, and provider-specific fields. */
export interface OAuthCredentials {
	refresh: string;
	access: string;
	/** ms epoch. */
	expires: number;
	[key: string]: unknown;
}

/** A stored OAuth credential. */
export interface OAuthCredential extends OAuthCredentials {
	type: "oauth";
}

/** One per provider; same shape as the entries of pi's auth.json. */
export type Credential = ApiKeyCredential | OAuthCredential;

/** Non-secret metadata about a stored credential. */
export interface CredentialInfo {
	providerId: string;
	type: "api_key" | "oauth";
}

/** Resolved auth for one request: key, headers or base URL, extra environment values and where they came from. */
export interface AuthResult {
	auth: ModelAuth;
	env?: Record<string, string>;
	/** Where the auth came from, e.g. "ANTHROPIC_API_KEY", "OAuth", "stored credential". */
	source?: string;
}

/** Whether a provider has auth configured and of which kind, without resolving (or refreshing) it. */
export interface AuthCheck {
	source?: string;
	type: "api_key" | "oauth";
}

/** The ambient environment auth resolution may consult. */
export interface AuthContext {
	env(name: string): Promise<string | undefined>;
	fileExists(path: string): Promise<boolean>;
}

/** A question a sign-in flow asks the user: free text, a secret, a choice, or a pasted authorization code. */
export type AuthPrompt =
	| { type: "text"; message: string; placeholder?: string; default?: string }
	| { type: "secret"; message: string; placeholder?: string }
	| { type: "select"; message: string; options: { value: string; label: string; hint?: string }[] }
	/** `signal` aborts when the code arrives another way (the browser reached the callback server). */
	| { type: "manual_code"; message: string; placeholder?: string; signal?: AbortSignal };

/**
 * A message a sign-in flow shows without waiting for an answer: information, a URL to open, a device code or progress.
 */
export type AuthNotification =
	| { type: "info"; message: string }
	| { type: "auth_url"; url: string; instructions?: string }
	| { type: "device_code"; code: string; url: string; instructions?: string }
	| { type: "progress"; message: string };

/** How a login flow talks to the user. */
export interface AuthInteraction {
	prompt(prompt: AuthPrompt): Promise<string>;
	notify(notification: AuthNotification): void | Promise<void>;
	signal?: AbortSignal;
}

/** Options a sign-in may use: a stable device id and the agent's name to show the provider. */
export interface LoginOptions {
	getDeviceId?: () => string | Promise<string>;
	agentName?: string;
}

/** What an `ApiKeyAuth` check or resolve receives: the auth context, the stored credential and an abort signal. */
export interface ApiKeyAuthInput {
	ctx: AuthContext;
	credential?: ApiKeyCredential;
	signal: AbortSignal;
}

/**
 * A provider's API-key authentication: how to ask the user for a key, check whether one is configured and resolve it
 * for a request.
 */
export interface ApiKeyAuth {
	name: string;
	login?(interaction: AuthInteraction & { signal: AbortSignal }): Promise<ApiKeyCredential>;
	check?(input: ApiKeyAuthInput): Promise<AuthCheck | undefined>;
	resolve(input: ApiKeyAuthInput): Promise<AuthResult | undefined>;
}

/** A provider's account sign-in (OAuth): log in, refresh the token, and turn the credential into request auth. */
export interface OAuthAuth {
	name: string;
	isSubscription?: boolean;
	loginLabel?: string;
	login(interaction: AuthInteraction, options?: LoginOptions): Promise<OAuthCredential>;
	/** Throws on failure. */
	refresh(credential: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential>;
	/** Side-effect free. */
	toAuth(credential: OAuthCredential): Promise<ModelAuth>;
}

/** At least one of the two. */
export interface ProviderAuth {
	apiKey?: ApiKeyAuth;
	oauth?: OAuthAuth;
}

/**
 * Per-request overrides of auth resolution: an explicit API key, environment values, the minimum OAuth token validity.
 */
export interface AuthResolutionOverrides {
	apiKey?: string;
	env?: Record<string, string>;
	minOAuthValidityMs?: number;
	signal?: AbortSignal;
}

/** Options of `CredentialStore` reads and writes. */
export interface CredentialStoreOptions {
	signal?: AbortSignal;
}

/** Persistent credentials. `modify` is the only write path, serialized per provider id. */
export interface CredentialStore {
	/** May return expired credentials; undefined when missing. */
	read(providerId: string, options?: CredentialStoreOptions): Promise<Credential | undefined>;
	/** Non-secret metadata only; never resolves secrets. */
	list(options?: CredentialStoreOptions): Promise<readonly CredentialInfo[]>;
	/** `fn` sees the current value; returning undefined leaves it unchanged; resolves with the post-write value. */
	modify(
		providerId: string,
		fn: (current: Credential | undefined) => Promise<Credential | undefined>,
		options?: CredentialStoreOptions,
	): Promise<Credential | undefined>;
	delete(providerId: string, options?: CredentialStoreOptions): Promise<void>;
}
