import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ProxyAssistantMessageEvent } from "@tau/agent";
import type { AssistantMessageEvent, Models } from "@tau/ai";

export interface ReceivedRequest {
	method: string | undefined;
	path: string | undefined;
	authorization: string | undefined;
	body: any;
}

type Handler = (request: ReceivedRequest, response: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

/** A throwaway HTTP server on 127.0.0.1; every request body is parsed as JSON and recorded. */
export async function startServer(handler: Handler) {
	const received: ReceivedRequest[] = [];
	const server = createServer(async (raw, response) => {
		const chunks: Buffer[] = [];
		for await (const chunk of raw) chunks.push(chunk as Buffer);
		const request: ReceivedRequest = {
			method: raw.method,
			path: raw.url,
			authorization: raw.headers.authorization,
			body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "null"),
		};
		received.push(request);
		await handler(request, response, raw);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** The server side of the proxy contract: forward each event without `partial`. */
export function toProxyEvent(event: AssistantMessageEvent): ProxyAssistantMessageEvent {
	switch (event.type) {
		case "start":
			return { type: "start" };
		case "text_start":
		case "thinking_start":
			return { type: event.type, contentIndex: event.contentIndex };
		case "text_delta":
		case "thinking_delta":
		case "toolcall_delta":
			return { type: event.type, contentIndex: event.contentIndex, delta: event.delta };
		case "text_end": {
			const block = event.partial.content[event.contentIndex];
			const contentSignature = block?.type === "text" ? block.textSignature : undefined;
			return {
				type: "text_end",
				contentIndex: event.contentIndex,
				...(contentSignature ? { contentSignature } : {}),
			};
		}
		case "thinking_end": {
			const block = event.partial.content[event.contentIndex];
			const contentSignature = block?.type === "thinking" ? block.thinkingSignature : undefined;
			return {
				type: "thinking_end",
				contentIndex: event.contentIndex,
				...(contentSignature ? { contentSignature } : {}),
			};
		}
		case "toolcall_start": {
			const block = event.partial.content[event.contentIndex];
			if (block?.type !== "toolCall") throw new Error("toolcall_start without a tool-call block");
			return { type: "toolcall_start", contentIndex: event.contentIndex, id: block.id, toolName: block.name };
		}
		case "toolcall_end":
			return { type: "toolcall_end", contentIndex: event.contentIndex, toolCall: event.toolCall };
		case "done":
			return {
				type: "done",
				reason: event.reason as "stop" | "length" | "toolUse",
				usage: event.message.usage,
				...(event.message.providerThinkingLevel
					? { providerThinkingLevel: event.message.providerThinkingLevel }
					: {}),
			};
		case "error":
			return {
				type: "error",
				reason: event.reason,
				errorMessage: event.error.errorMessage,
				usage: event.error.usage,
			};
	}
}

/** A proxy endpoint that streams from `models` and records every forwarded event. */
export function forwardingHandler(models: Models, forwarded: ProxyAssistantMessageEvent[] = []): Handler {
	return async (request, response) => {
		response.writeHead(200, { "Content-Type": "text/event-stream" });
		const { model, context, options } = request.body;
		for await (const event of models.streamSimple(model, context, options)) {
			const proxyEvent = toProxyEvent(event);
			forwarded.push(proxyEvent);
			response.write(`data: ${JSON.stringify(proxyEvent)}\n\n`);
		}
		response.end();
	};
}
