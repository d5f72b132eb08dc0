import { getIdentityHeaders } from "../../identity/client-identity.js";
import type { OpenAIResponsesOptions } from "../../types/api-options.js";
import type { Api, Model } from "../../types/model.js";
import { mergeHeaders } from "../../utils/headers.js";
import { cachingSessionId } from "../shared/cache-retention.js";
import type { ResolvedResponsesCompat } from "./payload.js";

/** Identity < model.headers < session headers < options.headers (docs/design/ai-adapters.md#header-precedence). */
export function responsesHeaders(
	model: Model<Api>,
	options: OpenAIResponsesOptions,
	compat: ResolvedResponsesCompat,
): Record<string, string | null> {
	const sessionId = cachingSessionId(options);
	let session: Record<string, string> | undefined;
	if (sessionId && compat.sessionAffinityFormat === "openrouter") session = { "x-session-id": sessionId };
	else if (sessionId) session = { "x-client-request-id": sessionId, "session-id": sessionId };
	return mergeHeaders(getIdentityHeaders(model, options.identity), model.headers, session, options.headers);
}
