/** Merges header layers; a later layer replaces an earlier name that differs only in case. */
export function mergeHeaders<V = string>(
	...layers: (Readonly<Record<string, V>> | undefined)[]
): Record<string, V> | undefined {
	let merged: Record<string, V> | undefined;
	for (const layer of layers) {
		if (!layer) continue;
		merged ??= {};
		for (const [name, value] of Object.entries(layer)) {
			for (const existing of Object.keys(merged)) {
				if (existing.toLowerCase() === name.toLowerCase()) delete merged[existing];
			}
			merged[name] = value;
		}
	}
	return merged;
}
