/**
 * Reuses SDK clients across requests: building one costs far more than a request's own setup, and an
 * agent sends the same configuration every turn. A client is a function of its constructor options
 * only (per-request signal, body and beta header are passed per call), so the key covers every one of
 * them: the kind, base URL, credential, merged headers, timeout and the caller's `fetch` (by identity).
 */

/** Enough for a few providers and sessions side by side; the least recently used client goes first. */
const MAX_CLIENTS = 16;

const clients = new Map<string, unknown>();
const fetchIds = new WeakMap<object, number>();
let nextFetchId = 1;

export interface SdkClientKey {
	kind: string;
	baseUrl: string;
	credential: string | null | undefined;
	headers: Readonly<Record<string, string | null>>;
	timeoutMs: number | undefined;
	fetch: object | undefined;
}

function fetchId(fetch: object | undefined): number {
	if (fetch === undefined) return 0;
	let id = fetchIds.get(fetch);
	if (id === undefined) {
		id = nextFetchId++;
		fetchIds.set(fetch, id);
	}
	return id;
}

function cacheKey(key: SdkClientKey): string {
	return JSON.stringify([
		key.kind,
		key.baseUrl,
		key.credential ?? null,
		Object.entries(key.headers),
		key.timeoutMs ?? null,
		fetchId(key.fetch),
	]);
}

/** The client built for exactly these options before, or a new one from `create`. */
export function cachedSdkClient<T>(key: SdkClientKey, create: () => T): T {
	const id = cacheKey(key);
	const cached = clients.get(id);
	if (cached !== undefined) {
		// Re-insert so iteration order stays least-recently-used first.
		clients.delete(id);
		clients.set(id, cached);
		return cached as T;
	}
	const client = create();
	clients.set(id, client);
	if (clients.size > MAX_CLIENTS) clients.delete(clients.keys().next().value as string);
	return client;
}
