import {
	type Api,
	builtinApi,
	type KnownApi,
	lazyStream,
	type Model,
	type Provider,
	type ProviderStreams,
	type StreamOptions,
} from "@tau/ai";
import { resolveConfigValueOrThrow } from "../auth/value-reference.js";

/**
 * Streams for a composed provider: models whose api the base provider serves go to it, others to
 * the built-in adapter of their api.
 */
export function composedStreams(base: Provider | undefined): ProviderStreams {
	const baseApis = new Set<string>(base?.getModels().map((model) => model.api) ?? []);
	const byApi = new Map<string, ProviderStreams>();
	const target = (api: Api): ProviderStreams => {
		if (base && baseApis.has(api)) return base as unknown as ProviderStreams;
		let streams = byApi.get(api);
		if (!streams) {
			streams = builtinApi(api as KnownApi);
			byApi.set(api, streams);
		}
		return streams;
	};
	return withResolvedModelHeaders({
		stream: (model, context, options) => target(model.api).stream(model, context, options),
		streamSimple: (model, context, options) => target(model.api).streamSimple(model, context, options),
	});
}

/**
 * models.json model headers may hold `$VAR`/`!command` references; they are resolved per request
 * (with the request env overlay) where the request still carries the configured value. An
 * unresolvable header fails the request as an error event.
 */
function withResolvedModelHeaders(inner: ProviderStreams): ProviderStreams {
	const prepare = <T extends StreamOptions>(model: Model, options: T | undefined): T | undefined => {
		if (!model.headers || !options?.headers) return options;
		const headers = { ...options.headers };
		for (const [name, configured] of Object.entries(model.headers)) {
			const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
			if (key === undefined || headers[key] !== configured) continue;
			headers[key] = resolveConfigValueOrThrow(
				configured,
				`header "${name}" of model ${model.provider}/${model.id}`,
				options.env,
			);
		}
		return { ...options, headers };
	};
	return {
		stream: (model, context, options) =>
			lazyStream(
				model,
				async () => inner.stream(model, context, prepare(model, options)),
				undefined,
				options?.signal,
			),
		streamSimple: (model, context, options) =>
			lazyStream(
				model,
				async () => inner.streamSimple(model, context, prepare(model, options)),
				undefined,
				options?.signal,
			),
	};
}
