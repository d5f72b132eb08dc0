import type { EventBus } from "../api/extension-api.js";

/** A plain channel → handlers bus; handlers are called synchronously in subscription order. */
export function createEventBus(): EventBus {
	const channels = new Map<string, Set<(data: unknown) => unknown>>();
	return {
		emit(channel, data) {
			// Snapshot so handlers that (un)subscribe during delivery do not disturb it.
			for (const handler of [...(channels.get(channel) ?? [])]) handler(data);
		},
		on(channel, handler) {
			const wrapped = (data: unknown) => handler(data);
			let handlers = channels.get(channel);
			if (!handlers) {
				handlers = new Set();
				channels.set(channel, handlers);
			}
			handlers.add(wrapped);
			return () => {
				channels.get(channel)?.delete(wrapped);
			};
		},
	};
}
