export interface ClientAttribution {
	name: string;
	url: string;
	categories?: string[];
}

/** Who is calling: drives the User-Agent and attribution headers (lowest-precedence defaults). */
export interface ClientIdentity {
	userAgent?: "short" | "detailed" | { custom: string };
	version?: string;
	/** `null` turns attribution off. */
	attribution?: ClientAttribution | null;
}
