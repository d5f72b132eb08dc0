import type { SimpleStreamOptions, ToolCall, Usage } from "@tau/ai";

/** Options of `streamProxy`: the stream options forwarded to the proxy server plus its URL and auth token. */
export interface ProxyStreamOptions
	extends Pick<
		SimpleStreamOptions,
		| "temperature"
		| "samplingParams"
		| "maxTokens"
		| "reasoning"
		| "cacheRetention"
		| "sessionId"
		| "disableContinuation"
		| "headers"
		| "metadata"
		| "transport"
		| "thinkingBudgets"
		| "maxRetryDelayMs"
	> {
	signal?: AbortSignal;
	/** Bearer token for the proxy. */
	authToken: string;
	/** Server root, e.g. "https://genai.example.com". */
	proxyUrl: string;
}

/** What the proxy server sends: assistant events without `partial` (the client rebuilds it). */
export type ProxyAssistantMessageEvent =
	| { type: "start" }
	| { type: "text_start"; contentIndex: number }
	| { type: "text_delta"; contentIndex: number; delta: string }
	| { type: "text_end"; contentIndex: number; contentSignature?: string }
	| { type: "thinking_start"; contentIndex: number }
	| { type: "thinking_delta"; contentIndex: number; delta: string }
	| { type: "thinking_end"; contentIndex: number; contentSignature?: string }
	| { type: "toolcall_start"; contentIndex: number; id: string; toolName: string }
	| { type: "toolcall_delta"; contentIndex: number; delta: string }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall }
	| { type: "done"; reason: "stop" | "length" | "toolUse"; usage: Usage; providerThinkingLevel?: string }
	| {
			type: "error";
			reason: "aborted" | "error";
			errorMessage?: string;
			usage: Usage;
			providerThinkingLevel?: string;
	  };

/** Options forwarded to the server: only JSON-serializable request options (no signal, token or URL). */
export const SERIALIZABLE_PROXY_OPTIONS = [
	"temperature",
	"samplingParams",
	"maxTokens",
	"reasoning",
	"cacheRetention",
	"sessionId",
	"disableContinuation",
	"headers",
	"metadata",
	"transport",
	"thinkingBudgets",
	"maxRetryDelayMs",
] as const satisfies readonly (keyof ProxyStreamOptions)[];
