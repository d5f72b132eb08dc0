import type { AssistantMessage } from "../types/messages.js";

/** Rate limiting and availability errors that mention tokens but are not overflows. */
const NON_OVERFLOW_PATTERNS: readonly RegExp[] = [
	/^(Throttling error|Service unavailable):/i,
	/rate limit/i,
	/too many requests/i,
];

const OVERFLOW_PATTERNS: readonly RegExp[] = [
	/prompt (is )?too long/i,
	/prompt exceeds max length/i,
	/request_too_large/i,
	/input is too long for requested model/i,
	/exceeds the context window/i,
	/exceeds (the )?(model'?s )?maximum context length( of \d+ tokens?|\s*\(\d+\))/i,
	/context window exceeded/i,
	/input token count.*exceeds the maximum/i,
	/maximum prompt length is \d+/i,
	/reduce the length of the messages/i,
	/maximum context length is \d+ tokens/i,
	/exceeds (the )?maximum allowed input length of [\d,]+ tokens?/i,
	/input \(\d+ tokens\) is longer than the model'?s context length \(\d+ tokens\)/i,
	/exceeds the limit of \d+/i,
	/exceeds the available context size/i,
	/greater than the context length/i,
	/context window exceeds limit/i,
	/exceeded model token limit/i,
	/too large for model with \d+ maximum context length/i,
	/prompt has [\d,]+ tokens?, but the configured context size is [\d,]+ tokens?/i,
	/model_context_window_exceeded/i,
	/prompt too long; exceeded (max )?context length/i,
	/range of input length should be/i,
	/context[_ ]length[_ ]exceeded/i,
	/too many tokens/i,
	/token limit exceeded/i,
	/^([\w.-]+( [\w.-]+)* API error \(413\):|413(\s|:|$))/i,
];

/** Bodyless 400/413 responses that Cerebras returns for oversized prompts. */
const CEREBRAS_OVERFLOW = /^4(00|13)\s*(status code)?\s*\(no body\)/i;

/** A copy of the overflow patterns, for hosts that classify errors themselves. */
export function getOverflowPatterns(): RegExp[] {
	return [...OVERFLOW_PATTERNS];
}

/**
 * Whether the request overflowed the context window: a provider error saying so, a normal stop that read
 * more input than the window holds (silent overflow), or a length stop with no output at a full window.
 */
export function isContextOverflow(
	message: Pick<AssistantMessage, "stopReason" | "errorMessage" | "usage" | "provider">,
	contextWindow?: number,
): boolean {
	if (message.stopReason === "error" && message.errorMessage) {
		const text = message.errorMessage;
		if (NON_OVERFLOW_PATTERNS.some((pattern) => pattern.test(text))) return false;
		if (OVERFLOW_PATTERNS.some((pattern) => pattern.test(text))) return true;
		return message.provider === "cerebras" && CEREBRAS_OVERFLOW.test(text);
	}
	if (contextWindow === undefined) return false;
	const input = message.usage.input + message.usage.cacheRead;
	if (message.stopReason === "stop") return input > contextWindow;
	if (message.stopReason === "length") return message.usage.output === 0 && input >= 0.99 * contextWindow;
	return false;
}

/** A length stop that produced less than the desired output, so asking again with more room can help. */
export function isRecoverableLength(
	message: Pick<AssistantMessage, "stopReason" | "usage">,
	desiredMaxOutput: number,
): boolean {
	return message.stopReason === "length" && desiredMaxOutput > 0 && message.usage.output < desiredMaxOutput;
}
