/** One layer of request headers for `mergeHeaders`; a `null` value removes a header set by a lower layer. */
export type HeaderLayer = Readonly<Record<string, string | null>> | undefined;

/**
 * Merges header layers from lowest to highest precedence. Names compare case-insensitively: a later name
 * replaces an earlier one differing only in case. `null` values are kept so a lower default can be
 * suppressed by whoever applies the result.
 */
export function mergeHeaders(...layers: HeaderLayer[]): Record<string, string | null> {
	const merged = new Map<string, [name: string, value: string | null]>();
	for (const layer of layers) {
		if (!layer) continue;
		for (const [name, value] of Object.entries(layer)) {
			if (value === undefined) continue;
			merged.set(name.toLowerCase(), [name, value]);
		}
	}
	return Object.fromEntries(merged.values());
}

/** Drops suppressed (`null`) entries, leaving what goes on the wire. */
export function resolveHeaders(headers: Readonly<Record<string, string | null>>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) if (value !== null) out[name] = value;
	return out;
}
