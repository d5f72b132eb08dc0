import type { ErrorSpec } from "./protocol.js";

/** Default `{ message, type, code }` per status, as OpenAI's API words them. */
const OPENAI_ERRORS: Record<number, { message: string; type: string; code: string | null }> = {
	400: { message: "Invalid request.", type: "invalid_request_error", code: null },
	401: {
		message: "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.",
		type: "invalid_request_error",
		code: "invalid_api_key",
	},
	403: { message: "You are not allowed to access this resource.", type: "invalid_request_error", code: null },
	404: {
		message: "The model does not exist or you do not have access to it.",
		type: "invalid_request_error",
		code: "model_not_found",
	},
	429: {
		message: "Rate limit reached for requests. Please try again later.",
		type: "requests",
		code: "rate_limit_exceeded",
	},
	500: {
		message: "The server had an error while processing your request. Sorry about that!",
		type: "server_error",
		code: null,
	},
	503: { message: "The engine is currently overloaded, please try again later.", type: "server_error", code: null },
};

/** The `error` object OpenAI sends, both in HTTP error bodies and in-stream. */
export function openAiError(error: ErrorSpec, param: string | null = null): Record<string, unknown> {
	const known = OPENAI_ERRORS[error.status] ?? {
		message: `HTTP ${error.status}`,
		type: error.status >= 500 ? "server_error" : "invalid_request_error",
		code: null,
	};
	return {
		message: error.message ?? known.message,
		type: error.type ?? known.type,
		param,
		code: error.code ?? known.code,
	};
}

export function openAiErrorBody(error: ErrorSpec): unknown {
	return { error: openAiError(error) };
}

/** OpenAI's context-length error, with the wording the API uses for the given parameter. */
export function openAiOverflowBody(message: string, param: string): unknown {
	return {
		error: { message, type: "invalid_request_error", param, code: "context_length_exceeded" },
	};
}
