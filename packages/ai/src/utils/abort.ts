/** The reason an aborted signal carries, as something throwable. */
export function abortReason(signal: AbortSignal): unknown {
	return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Settles with `promise`, or rejects with the abort reason as soon as `signal` fires. */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
	if (!signal) return promise;
	if (signal.aborted) {
		promise.catch(() => {});
		return Promise.reject(abortReason(signal));
	}
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(abortReason(signal));
		signal.addEventListener("abort", onAbort, { once: true });
		promise.then(
			(value) => {
				signal.removeEventListener("abort", onAbort);
				resolve(value);
			},
			(error) => {
				signal.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}

/** Resolves after `ms`, or rejects with an `AbortError` named error `message` when `signal` fires. */
export function abortableSleep(
	ms: number,
	signal: AbortSignal | undefined,
	message = "Request aborted",
): Promise<void> {
	const aborted = () => Object.assign(new Error(message), { name: "AbortError" });
	if (signal?.aborted) return Promise.reject(aborted());
	return new Promise<void>((resolve, reject) => {
		const onAbort = () => {
			clearTimeout(timer);
			reject(aborted());
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}

/** A signal that never fires, for APIs whose contract requires one. */
export function neverAbortingSignal(): AbortSignal {
	return new AbortController().signal;
}
