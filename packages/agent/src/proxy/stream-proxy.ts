import {
	type Api,
	type AssistantMessage,
	type AssistantMessageEventStream,
	createAssistantMessageEventStream,
	type Model,
	type TranscriptContext,
	zeroUsage,
} from "@tau/ai";
import { errorMessage } from "../error-message.js";
import { ProxyPartialBuilder } from "./rebuild-partial.js";
import { type ProxyAssistantMessageEvent, type ProxyStreamOptions, SERIALIZABLE_PROXY_OPTIONS } from "./types.js";

/**
 * A stream function for hosts that must not hold provider keys: a server performs the request and
 * streams slimmed events back as SSE; the partial message is rebuilt locally.
 */
export function streamProxy(
	model: Model<Api>,
	context: TranscriptContext,
	options: ProxyStreamOptions,
): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const partial: AssistantMessage = {
		role: "assistant",
		stopReason: "pending",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: zeroUsage(),
		timestamp: Date.now(),
	};
	void relay(stream, new ProxyPartialBuilder(partial), model, context, options);
	return stream;
}

async function relay(
	stream: AssistantMessageEventStream,
	builder: ProxyPartialBuilder,
	model: Model<Api>,
	context: TranscriptContext,
	options: ProxyStreamOptions,
): Promise<void> {
	const { signal } = options;
	let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
	const cancelReader = () => {
		void reader?.cancel().catch(() => {});
	};
	signal?.addEventListener("abort", cancelReader, { once: true });
	try {
		const response = await fetch(`${options.proxyUrl}/api/stream`, {
			method: "POST",
			headers: { Authorization: `Bearer ${options.authToken}`, "Content-Type": "application/json" },
			body: JSON.stringify({ model, context, options: serializableOptions(options) }),
			signal,
		});
		if (!response.ok) throw new Error(await proxyErrorMessage(response));
		if (!response.body) throw new Error("Proxy response has no body");
		reader = response.body.getReader();
		const decoder = new TextDecoder();
		let buffered = "";
		let finished = false;
		const consume = (lines: string[]) => {
			for (const line of lines) {
				if (finished) return;
				finished = handleLine(line, stream, builder);
			}
		};
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			buffered += decoder.decode(value, { stream: true });
			const lines = buffered.split("\n");
			buffered = lines.pop() ?? "";
			consume(lines);
			if (finished) return;
		}
		// The last event may arrive without a trailing newline.
		buffered += decoder.decode();
		consume(buffered.split("\n"));
		if (!finished) throw new Error("Connection closed by proxy server before the response completed");
	} catch (error) {
		const aborted = signal?.aborted === true;
		if (aborted) cancelReader();
		builder.partial.stopReason = aborted ? "aborted" : "error";
		builder.partial.errorMessage = errorMessage(error);
		stream.push({ type: "error", reason: aborted ? "aborted" : "error", error: builder.partial });
	} finally {
		signal?.removeEventListener("abort", cancelReader);
	}
}

/** Returns true once a terminal event was delivered. */
function handleLine(line: string, stream: AssistantMessageEventStream, builder: ProxyPartialBuilder): boolean {
	if (!line.startsWith("data: ")) return false;
	const data = line.slice("data: ".length).trim();
	if (data === "") return false;
	const proxyEvent = JSON.parse(data) as ProxyAssistantMessageEvent;
	const event = builder.apply(proxyEvent);
	if (!event) {
		console.warn(`streamProxy: ignoring unknown proxy event type ${JSON.stringify(proxyEvent.type)}`);
		return false;
	}
	stream.push(event);
	return event.type === "done" || event.type === "error";
}

function serializableOptions(options: ProxyStreamOptions): Partial<ProxyStreamOptions> {
	const forwarded: Record<string, unknown> = {};
	for (const key of SERIALIZABLE_PROXY_OPTIONS) {
		if (options[key] !== undefined) forwarded[key] = options[key];
	}
	return forwarded;
}

async function proxyErrorMessage(response: Response): Promise<string> {
	const fallback = `Proxy error: ${response.status} ${response.statusText}`;
	try {
		const body: unknown = JSON.parse(await response.text());
		if (body && typeof body === "object" && "error" in body && body.error !== undefined) {
			return `Proxy error: ${String(body.error)}`;
		}
	} catch {
		// Not JSON: the status line is all there is.
	}
	return fallback;
}
