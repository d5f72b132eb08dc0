import { envApiKeyAuth, lazyOAuth } from "../../auth/auth-helpers.js";
import { isModelType } from "../../models/model-helpers.js";
import type { AnyModel, Api, Model } from "../../types/model.js";
import type { Provider, RefreshModelsContext } from "../../types/provider.js";
import { shippedModels } from "../catalog/shipped-catalog.js";
import { piMessagesApi } from "../lazy-apis/pi-messages.js";
import {
	DEFAULT_RADIUS_GATEWAY,
	fetchRadiusGatewayConfig,
	normalizeRadiusGatewayUrl,
	parseRadiusGatewayConfig,
	radiusModelsFromConfig,
} from "./radius-gateway.js";

/** Which gateway a Radius provider talks to, and the id and name it appears under. */
export interface RadiusProviderOptions {
	/** Default `radius`. */
	id?: string;
	/** Default `Radius`. */
	name?: string;
	/** The gateway origin; default the public `https://radius.pi.dev`. */
	gateway?: string;
}

/**
 * A Radius gateway as a provider (docs/providers.md "Radius"): a key from `RADIUS_API_KEY` or a stored
 * one, or the gateway's sign-in; models speak `pi-messages`. The catalog comes from the gateway for the
 * signed-in account and is stored, so a later start offline shows the same models. Once known it
 * replaces the shipped list rather than overlaying it, because an organisation can switch models off;
 * the shipped list (the public gateway's only) covers the time before any catalog is known.
 */
export function radiusProvider(options: RadiusProviderOptions = {}): Provider {
	const id = options.id ?? "radius";
	const name = options.name ?? "Radius";
	const gateway = normalizeRadiusGatewayUrl(options.gateway ?? DEFAULT_RADIUS_GATEWAY);
	const isPublicGateway = gateway === DEFAULT_RADIUS_GATEWAY;
	let baseline: readonly AnyModel[] | undefined;
	const baselineModels = () => {
		baseline ??= isPublicGateway ? shippedModels("radius").map((model) => ({ ...model, provider: id })) : [];
		return baseline;
	};
	let gatewayModels: readonly AnyModel[] | undefined;
	const allModels = () => gatewayModels ?? baselineModels();
	const streams = piMessagesApi();

	/** Publishes a catalog; false when a newer refresh took over. */
	const publish = (context: RefreshModelsContext, models: readonly AnyModel[], persist: boolean) =>
		context.publish({
			...(persist ? { persist: { models: [...models], checkedAt: Date.now() } } : {}),
			update: () => {
				gatewayModels = models;
			},
		});

	return {
		id,
		name,
		auth: {
			apiKey: envApiKeyAuth(`${name} API key`, ["RADIUS_API_KEY"]),
			oauth: lazyOAuth({
				name,
				loginLabel: `Sign in with ${name}`,
				load: async () => (await import("../../auth/oauth/radius-oauth.js")).radiusOAuthFlow(name, gateway),
			}),
		},
		getModels: () => allModels().filter((model): model is Model<Api> => isModelType(model, "chat")),
		getAllModels: allModels,
		async refreshModels(context) {
			if (context.stored) {
				const restored = context.stored.models.filter((model) => model.provider === id);
				if (!(await publish(context, restored, false))) return;
			} else if (context.credential?.type === "oauth") {
				// Pi's earlier releases kept the catalog inside the credential; it seeds the store once.
				const kept = parseRadiusGatewayConfig(context.credential.gatewayConfig);
				if (kept && !(await publish(context, radiusModelsFromConfig(id, kept), true))) return;
			}
			if (!context.allowNetwork || context.signal.aborted) return;
			const credential = context.credential;
			const apiKey = credential?.type === "oauth" ? credential.access : credential?.key;
			const config = await fetchRadiusGatewayConfig(gateway, apiKey, context.signal);
			if (context.signal.aborted) return;
			await publish(context, radiusModelsFromConfig(id, config), true);
		},
		stream: (model, context, streamOptions) => streams.stream(model, context, streamOptions),
		streamSimple: (model, context, streamOptions) => streams.streamSimple(model, context, streamOptions),
	};
}
