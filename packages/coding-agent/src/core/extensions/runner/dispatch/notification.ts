import type { DispatchHost } from "./dispatch-host.js";

/** Awaits every handler in order; errors are reported and later handlers still run. */
export async function dispatchNotification(host: DispatchHost, event: { type: string }): Promise<void> {
	const handlers = host.handlers(event.type);
	if (handlers.length === 0) return;
	const ctx = host.context();
	for (const { extensionPath, handler } of handlers) {
		try {
			await handler(event, ctx);
		} catch (error) {
			host.report(extensionPath, event.type, error);
		}
	}
}
