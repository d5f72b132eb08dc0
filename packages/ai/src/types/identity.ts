/**
 * The application named in attribution headers (OpenRouter's `HTTP-Referer`/`X-Title` and the like): name, URL and
 * categories.
 */
export interface ClientAttribution {
	name: string;
	url: string;
	categories?: string[];
}

/**
 * The User-Agent sent: short (`tau`), detailed (`tau/<version>` with platform, runtime and architecture; the default),
 * or a custom string.
 */
export type UserAgentMode = "short" | "detailed" | { custom: string };

/** Who is calling: drives the User-Agent and attribution headers (lowest-precedence defaults). */
export interface ClientIdentity {
	userAgent?: UserAgentMode;
	version?: string;
	/** `null` turns attribution off. */
	attribution?: ClientAttribution | null;
}

/** The provider and endpoint a request goes to. */
export interface ClientIdentityTarget {
	readonly provider: string;
	readonly baseUrl: string;
}
