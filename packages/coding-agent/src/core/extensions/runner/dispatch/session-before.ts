import type { DispatchHost } from "./dispatch-host.js";

/**
 * `session_before_*`: the first `cancel: true` wins and stops; other results merge field-wise in
 * handler order (tau deviation #1: a later `{}` no longer discards an earlier `{ compaction }`).
 */
export async function dispatchSessionBefore<R extends { cancel?: boolean }>(
	host: DispatchHost,
	event: { type: string },
): Promise<R | undefined> {
	const handlers = host.handlers(event.type);
	if (handlers.length === 0) return undefined;
	const ctx = host.context();
	let merged: Record<string, unknown> | undefined;
	for (const { extensionPath, handler } of handlers) {
		let result: unknown;
		try {
			result = await handler(event, ctx);
		} catch (error) {
			host.report(extensionPath, event.type, error);
			continue;
		}
		if (!result || typeof result !== "object") continue;
		const fields = result as Record<string, unknown>;
		if (fields.cancel === true) return { ...merged, ...fields } as R;
		merged ??= {};
		for (const [key, value] of Object.entries(fields)) if (value !== undefined) merged[key] = value;
	}
	return merged as R | undefined;
}
