/**
 * SIGINT (exit 130), SIGTERM (exit 143) and SIGHUP (exit 129, not on Windows) for one-shot modes:
 * the first signal disposes the runtime (extensions see `session_shutdown`) and exits; a second one
 * exits at once. Tool processes are killed either way (core/tools/shell/process-group.ts).
 */
export function installShutdownSignals(dispose: () => Promise<void>): () => void {
	let stopping = false;
	const handlers = new Map<NodeJS.Signals, () => void>();
	const onSignal = (code: number) => () => {
		if (stopping) process.exit(code);
		stopping = true;
		void dispose()
			.catch(() => undefined)
			.finally(() => process.exit(code));
	};
	handlers.set("SIGINT", onSignal(130));
	handlers.set("SIGTERM", onSignal(143));
	if (process.platform !== "win32") handlers.set("SIGHUP", onSignal(129));
	for (const [signal, handler] of handlers) process.on(signal, handler);
	return () => {
		for (const [signal, handler] of handlers) process.off(signal, handler);
	};
}
