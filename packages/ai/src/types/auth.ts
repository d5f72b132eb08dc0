export interface ModelAuth {
	apiKey?: string;
	headers?: Record<string, string | null>;
	baseUrl?: string;
}

export interface ApiKeyCredential {
	type: "api_key";
	key?: string;
	env?: Record<string, string>;
}

export interface OAuthCredentials {
	refresh: string;
	access: string;
	/** ms epoch. */
	expires: number;
	[key: string]: unknown;
}

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

export interface AuthResult {
	auth: ModelAuth;
	env?: Record<string, string>;
	/** Where the auth came from, e.g. "ANTHROPIC_API_KEY", "OAuth", "stored credential". */
	source?: string;
}

export interface AuthCheck {
	source?: string;
	type: "api_key" | "oauth";
}

/** The ambient environment auth resolution may consult. */
export interface AuthContext {
	env(name: string): Promise<string | undefined>;
	fileExists(path: string): Promise<boolean>;
}

export type AuthPrompt =
	| { type: "text"; message: string; placeholder?: string; default?: string }
	| { type: "secret"; message: string; placeholder?: string }
	| { type: "select"; message: string; options: { value: string; label: string; hint?: string }[] }
	/** `signal` aborts when the code arrives another way (the browser reached the callback server). */
	| { type: "manual_code"; message: string; placeholder?: string; signal?: AbortSignal };

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

export interface LoginOptions {
	getDeviceId?: () => string | Promise<string>;
	agentName?: string;
}

export interface ApiKeyAuthInput {
	ctx: AuthContext;
	credential?: ApiKeyCredential;
	signal: AbortSignal;
}

export interface ApiKeyAuth {
	name: string;
	login?(interaction: AuthInteraction & { signal: AbortSignal }): Promise<ApiKeyCredential>;
	check?(input: ApiKeyAuthInput): Promise<AuthCheck | undefined>;
	resolve(input: ApiKeyAuthInput): Promise<AuthResult | undefined>;
}

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

export interface AuthResolutionOverrides {
	apiKey?: string;
	env?: Record<string, string>;
	minOAuthValidityMs?: number;
	signal?: AbortSignal;
}

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
