import { keylessAuth } from "../auth/auth-helpers.js";
import { createProvider } from "../providers/create-provider.js";
import type { Provider } from "../types/provider.js";
import { createFauxCore, type FauxCore, type FauxProviderOptions } from "./faux-core.js";

/** A faux provider ready for `models.setProvider`, with the scripting handle of its core. */
export interface FauxProviderHandle extends Omit<FauxCore, keyof FauxStreams | "provider"> {
	provider: Provider;
}

type FauxStreams = Pick<FauxCore, "stream" | "streamSimple" | "fetchDeferred" | "cancelDeferred">;

/**
 * A scripted provider for tests and offline demos: each request takes the next queued step (a message or a
 * factory over the request) and streams it through the real event protocol.
 */
export function fauxProvider(options: FauxProviderOptions = {}): FauxProviderHandle {
	const {
		stream,
		streamSimple,
		fetchDeferred,
		cancelDeferred,
		provider: providerId,
		...handle
	} = createFauxCore(options);
	const provider = createProvider({
		id: providerId,
		name: "Faux",
		auth: { apiKey: keylessAuth("Faux") },
		models: handle.models,
		api: { stream, streamSimple, fetchDeferred, cancelDeferred },
	});
	return { ...handle, provider };
}
