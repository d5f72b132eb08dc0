/** The abort signal one provider request hands to the SDK, and how to let go of it. */
export interface RequestSignal {
	signal: AbortSignal | undefined;
	/** Removes the one listener on the caller's signal; call when the request has ended. */
	release(): void;
}

/**
 * A signal that follows `outer` for one request. The SDKs hang an abort listener on the signal they
 * get and, for a raw response, drop it only when the body is garbage-collected; given a run's
 * long-lived signal that is one more listener per request until Node warns. This signal is dropped
 * with the request, and its single link to `outer` is removed when the request ends.
 */
export function linkRequestSignal(outer: AbortSignal | undefined): RequestSignal {
	if (!outer) return { signal: undefined, release: () => {} };
	const controller = new AbortController();
	if (outer.aborted) {
		controller.abort(outer.reason);
		return { signal: controller.signal, release: () => {} };
	}
	const follow = () => controller.abort(outer.reason);
	outer.addEventListener("abort", follow, { once: true });
	return { signal: controller.signal, release: () => outer.removeEventListener("abort", follow) };
}
