export interface ClientAttribution {
	name: string;
	url: string;
	categories?: string[];
}

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
