import { failedImages } from "../../models/media-failures.js";
import type { ProviderImages } from "../../types/provider.js";

/** The openrouter-images API, whose module (and SDK) loads on the first request; a load failure is a result. */
export function openRouterImagesApi(): ProviderImages {
	let loading: Promise<typeof import("../../api/openrouter-images/index.js")> | undefined;
	return {
		async generateImages(model, context, options) {
			try {
				loading ??= import("../../api/openrouter-images/index.js");
				return await (await loading).generateImages(model, context, options);
			} catch (error) {
				return failedImages(model, error, options?.signal);
			}
		},
	};
}
