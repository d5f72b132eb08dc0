type SessionCleanup = (sessionId?: string) => void | Promise<void>;

const cleanups = new Set<SessionCleanup>();

/** Adapters that keep per-session state register how to drop it. Returns an unregister function. */
export function registerSessionResourceCleanup(cleanup: SessionCleanup): () => void {
	cleanups.add(cleanup);
	return () => cleanups.delete(cleanup);
}

/** Hosts call this when a session ends (or with no id to drop everything); a no-op when nothing registered. */
export async function cleanupSessionResources(sessionId?: string): Promise<void> {
	await Promise.allSettled([...cleanups].map(async (cleanup) => cleanup(sessionId)));
}
