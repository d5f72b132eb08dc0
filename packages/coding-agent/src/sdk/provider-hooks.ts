import type { Api, Model, ProviderResponseInfo, SimpleStreamOptions } from "@tau/ai";
import type { ExtensionRunner } from "../core/extensions/index.js";

type Runner = () => ExtensionRunner | undefined;

/** The handled runner, or undefined (each hook is installed only when an extension listens). */
function listening(runner: Runner, event: string): ExtensionRunner | undefined {
	const current = runner();
	return current?.hasHandlers(event) ? current : undefined;
}

/**
 * Agent-level provider hooks (docs/design/session-runtime.md#agent-wiring), looked up through the session's current runner per call so a
 * reload or replacement is picked up: `before_provider_request`, `after_provider_response`,
 * `provider_stream_event`.
 */
export function providerHooks(
	runner: Runner,
): Pick<SimpleStreamOptions, "onPayload" | "onResponse" | "onProviderStreamEvent"> {
	return {
		onPayload: async (payload: unknown) =>
			listening(runner, "before_provider_request")?.emitBeforeProviderRequest(payload),
		onResponse: async (response: ProviderResponseInfo) => {
			await listening(runner, "after_provider_response")?.emit({
				type: "after_provider_response",
				status: response.status,
				headers: response.headers,
			});
		},
		// Called for every provider event: without a listener it returns nothing, so a delta costs no promise.
		onProviderStreamEvent: (data: unknown, model: Model<Api>) =>
			listening(runner, "provider_stream_event")
				?.emit({
					type: "provider_stream_event",
					provider: model.provider,
					api: model.api,
					model: model.id,
					data,
				})
				.then(() => undefined),
	};
}

/** `before_provider_headers` as the request's header transform, when an extension listens. */
export function headerTransform(
	runner: Runner,
): ((headers: Record<string, string | null>) => Promise<Record<string, string | null>>) | undefined {
	const current = listening(runner, "before_provider_headers");
	return current ? (headers) => current.emitBeforeProviderHeaders(headers) : undefined;
}
