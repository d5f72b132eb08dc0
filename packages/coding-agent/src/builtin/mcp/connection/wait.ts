import type { McpServerConnection } from "./server-connection.js";

/** Resolves with `promise`, or early when `signal` aborts; the abort listener is removed either way. */
export async function untilAborted(promise: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
	if (!signal) {
		await promise;
		return;
	}
	if (signal.aborted) return;
	let onAbort: (() => void) | undefined;
	try {
		await Promise.race([
			promise,
			new Promise<void>((resolve) => {
				onAbort = resolve;
				signal.addEventListener("abort", onAbort, { once: true });
			}),
		]);
	} finally {
		if (onAbort) signal.removeEventListener("abort", onAbort);
	}
}

/** Resolves when every given connection's latest attempt settled, or when `signal` aborts. */
export async function waitForConnections(
	connections: readonly McpServerConnection[],
	signal: AbortSignal | undefined,
): Promise<void> {
	for (;;) {
		const readies = connections.map((connection) => connection.ready);
		await untilAborted(Promise.all(readies), signal);
		if (signal?.aborted) return;
		// A reconnect may have started meanwhile; wait for the newest attempts too.
		if (connections.every((connection, i) => connection.ready === readies[i])) return;
	}
}

/** Waits like `waitForConnections`, at most `ms`; true when it gave up. */
export async function waitForConnectionsAtMost(
	connections: readonly McpServerConnection[],
	signal: AbortSignal | undefined,
	ms: number,
): Promise<boolean> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	try {
		return await Promise.race([
			waitForConnections(connections, signal).then(() => false),
			new Promise<boolean>((resolve) => {
				timer = setTimeout(() => resolve(true), ms);
			}),
		]);
	} finally {
		clearTimeout(timer);
	}
}
