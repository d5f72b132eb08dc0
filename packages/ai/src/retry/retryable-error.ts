import type { AssistantMessage } from "../types/messages.js";

/** Quota, billing and subscription exhaustion: retrying cannot help, so these win over everything else. */
const NON_RETRYABLE_PATTERNS: readonly RegExp[] = [
	/GoUsageLimitError/i,
	/FreeUsageLimitError/i,
	/Monthly usage limit reached/i,
	/available balance/i,
	/insufficient_quota/i,
	/out of budget/i,
	/quota exceeded/i,
	/billing/i,
	/subscription_sharing_usage_limit_exceeded/i,
	/subscription_sharing_workplace_individual_usage_limit_exceeded/i,
	/"?code"?\s*:\s*"?1308"?(?!\d)/i,
];

/** Transient overload, rate limiting, server and transport failures. */
const RETRYABLE_PATTERNS: readonly RegExp[] = [
	/overloaded/i,
	/server_busy/i,
	/servers are currently busy/i,
	/currently experiencing high demand/i,
	/model is at capacity/i,
	/rate.?limit/i,
	/too many requests/i,
	/(?<![a-z0-9])(429|500|502|503|504|520|524)(?![a-z0-9])/i,
	/service.?(is.?)?(temporarily.?)?unavailable/i,
	/server.?error/i,
	/internal.?error/i,
	/provider.?returned.?(an.?)?error/i,
	/exceeded request buffer limit while retrying upstream/i,
	/unable to forward upstream/i,
	/upstream.?request.?failed/i,
	/upstream_stream_read_error/i,
	/stream was interrupted/i,
	/http\/?2 stream failed/i,
	/network.?error/i,
	/connection.?error/i,
	/connection.?refused/i,
	/connection.?lost/i,
	/connection.?closed/i,
	/other side closed/i,
	/fetch failed/i,
	/request to \S+ failed, reason:/i,
	/getaddrinfo/i,
	/(?<![A-Za-z0-9_])(ECONNRESET|ECONNABORTED|ECONNREFUSED|ETIMEDOUT|EPIPE)(?![A-Za-z0-9_])/,
	/connection reset by peer/i,
	/ENOTFOUND/,
	/EAI_AGAIN/,
	/upstream.?connect/i,
	/reset before headers/i,
	/socket hang up/i,
	/socket connection was closed/i,
	/timed? out/i,
	/timeout/i,
	/terminated/i,
	/websocket.?closed/i,
	/websocket.?error/i,
	/websocket.?connection.?limit.?reached/i,
	/ended without/i,
	/stream ended before message_stop/i,
	/stream ended before a terminal response event/i,
	/http2 request did not get a response/i,
	/stream disconnected before completion/i,
	/cut short after the reply had begun/i,
	/pending stream has been canceled/i,
	/retry delay/i,
	/you can retry your request/i,
	/try your request again/i,
	/please retry your request/i,
	/ResourceExhausted/i,
	/subscription_sharing_usage_unavailable/i,
	/subscription_sharing_user_unavailable/i,
];

/** Whether a failed response is worth retrying. Callers should check overflow first. */
export function isRetryableAssistantError(message: Pick<AssistantMessage, "stopReason" | "errorMessage">): boolean {
	if (message.stopReason !== "error" || !message.errorMessage) return false;
	const text = message.errorMessage;
	if (NON_RETRYABLE_PATTERNS.some((pattern) => pattern.test(text))) return false;
	return RETRYABLE_PATTERNS.some((pattern) => pattern.test(text));
}
