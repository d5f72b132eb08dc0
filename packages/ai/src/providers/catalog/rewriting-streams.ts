import { lazyStream } from "../../stream/lazy-stream.js";
import type { Api, Model } from "../../types/model.js";
import type { SimpleStreamOptions, StreamOptions } from "../../types/options.js";
import type { ProviderStreams } from "../../types/provider.js";

/** What a provider changes about a request before its API sees it (for example a base URL from the env). */
export type RequestRewrite = <TOptions extends StreamOptions>(
	model: Model<Api>,
	options: TOptions | undefined,
) => { model: Model<Api>; options: TOptions | undefined };

/**
 * `inner` behind a rewrite that runs per request inside the stream, so a rewrite that throws (an endpoint
 * that is not configured) fails that request with an error event instead of throwing out of `stream()`.
 */
export function rewritingStreams(inner: ProviderStreams, rewrite: RequestRewrite): ProviderStreams {
	return {
		stream: (model, context, options?: StreamOptions) =>
			lazyStream(
				model,
				async () => {
					const request = rewrite(model, options);
					return inner.stream(request.model, context, request.options);
				},
				undefined,
				options?.signal,
			),
		streamSimple: (model, context, options?: SimpleStreamOptions) =>
			lazyStream(
				model,
				async () => {
					const request = rewrite(model, options);
					return inner.streamSimple(request.model, context, request.options);
				},
				undefined,
				options?.signal,
			),
	};
}
