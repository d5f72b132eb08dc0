import { lazyStream } from "../stream/lazy-stream.js";
import type { ProviderStreams } from "../types/provider.js";

/** Which deferred-request operations a lazily loaded API implementation supports. */
export interface LazyApiCapabilities {
	fetchDeferred?: boolean;
	cancelDeferred?: boolean;
}

/**
 * An API implementation whose module loads on the first request. The load is memoized; a load failure
 * becomes an `error` event of that request.
 */
export function lazyApi(load: () => Promise<ProviderStreams>, capabilities: LazyApiCapabilities = {}): ProviderStreams {
	let loading: Promise<ProviderStreams> | undefined;
	const implementation = () => {
		loading ??= load();
		return loading;
	};
	const streams: ProviderStreams = {
		stream: (model, context, options) =>
			lazyStream(
				model,
				async () => (await implementation()).stream(model, context, options),
				undefined,
				options?.signal,
			),
		streamSimple: (model, context, options) =>
			lazyStream(
				model,
				async () => (await implementation()).streamSimple(model, context, options),
				undefined,
				options?.signal,
			),
	};
	if (capabilities.fetchDeferred) {
		streams.fetchDeferred = (model, handle, options) =>
			lazyStream(
				model,
				async () => {
					const loaded = await implementation();
					if (!loaded.fetchDeferred) throw new Error(`API ${model.api} does not support deferred responses`);
					return loaded.fetchDeferred(model, handle, options);
				},
				undefined,
				options?.signal,
			);
	}
	if (capabilities.cancelDeferred) {
		streams.cancelDeferred = async (model, handle, options) => {
			await (await implementation()).cancelDeferred?.(model, handle, options);
		};
	}
	return streams;
}
