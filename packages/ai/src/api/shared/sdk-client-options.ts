import type { Api, Model } from "../../types/model.js";
import type { StreamOptions } from "../../types/options.js";

/**
 * Constructor options every SDK client gets: the model's base URL, SDK retries off (tau's abortable
 * request retry wraps the call instead), the caller's fetch and timeout, headers already merged by
 * the adapter, and no SDK logging.
 */
export function sdkClientOptions(
	model: Pick<Model<Api>, "baseUrl">,
	options: Pick<StreamOptions, "timeoutMs" | "fetch">,
	headers: Record<string, string | null>,
) {
	return {
		baseURL: model.baseUrl,
		maxRetries: 0,
		...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
		fetch: options.fetch,
		defaultHeaders: headers,
		logLevel: "off" as const,
		dangerouslyAllowBrowser: true,
	};
}
