/** Protocol version tau requests. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";
/** Versions tau accepts from a server's `initialize` answer. */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
export type SupportedProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

export type JsonRpcId = string | number;
export interface JsonRpcRequest {
	jsonrpc: "2.0";
	id: JsonRpcId;
	method: string;
	params?: Record<string, unknown>;
}
export interface JsonRpcNotification {
	jsonrpc: "2.0";
	method: string;
	params?: Record<string, unknown>;
}
export interface JsonRpcErrorObject {
	code: number;
	message: string;
	data?: unknown;
}
export interface JsonRpcResponse {
	jsonrpc: "2.0";
	id: JsonRpcId | null;
	result?: unknown;
	error?: JsonRpcErrorObject;
}
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks the JSON-RPC 2.0 envelope of a parsed value; returns an error message or the message. */
export function parseJsonRpcMessage(value: unknown): JsonRpcMessage | string {
	if (!isObject(value) || value.jsonrpc !== "2.0") return "not a JSON-RPC 2.0 message";
	if (value.params !== undefined && !isObject(value.params) && !Array.isArray(value.params)) {
		return "JSON-RPC params must be an object";
	}
	const hasId = typeof value.id === "string" || typeof value.id === "number";
	if (typeof value.method === "string") {
		if (value.id !== undefined && !hasId) return "JSON-RPC request id must be a string or number";
		return value as unknown as JsonRpcMessage;
	}
	if (!hasId && value.id !== null) return "JSON-RPC response without id";
	if ("error" in value) {
		const error = value.error;
		if (!isObject(error) || typeof error.code !== "number" || typeof error.message !== "string") {
			return "JSON-RPC error object is malformed";
		}
		return value as unknown as JsonRpcMessage;
	}
	if (!("result" in value)) return "JSON-RPC response has neither result nor error";
	return value as unknown as JsonRpcMessage;
}

export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
	return "method" in message && "id" in message && message.id !== undefined;
}
export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
	return "method" in message && !("id" in message && message.id !== undefined);
}
export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
	return !("method" in message);
}

export interface Implementation {
	name: string;
	version: string;
	title?: string;
}

export interface ServerCapabilities {
	tools?: { listChanged?: boolean };
	resources?: { subscribe?: boolean; listChanged?: boolean };
	prompts?: { listChanged?: boolean };
	logging?: Record<string, unknown>;
	experimental?: Record<string, unknown>;
	[key: string]: unknown;
}

export interface InitializeResult {
	protocolVersion: string;
	capabilities: ServerCapabilities;
	serverInfo: Implementation;
	instructions?: string;
}

export interface ToolAnnotations {
	title?: string;
	readOnlyHint?: boolean;
	destructiveHint?: boolean;
	idempotentHint?: boolean;
	openWorldHint?: boolean;
}

export interface Tool {
	name: string;
	title?: string;
	description?: string;
	inputSchema: Record<string, unknown>;
	outputSchema?: Record<string, unknown>;
	annotations?: ToolAnnotations;
	execution?: unknown;
	_meta?: Record<string, unknown>;
}

interface BlockExtras {
	annotations?: unknown;
	_meta?: Record<string, unknown>;
}
export interface TextContent extends BlockExtras {
	type: "text";
	text: string;
}
export interface ImageContent extends BlockExtras {
	type: "image";
	data: string;
	mimeType: string;
}
export interface AudioContent extends BlockExtras {
	type: "audio";
	data: string;
	mimeType: string;
}
export interface ResourceLink extends BlockExtras {
	type: "resource_link";
	uri: string;
	name: string;
	title?: string;
	description?: string;
	mimeType?: string;
	size?: number;
}
export type ResourceContents =
	| { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
	| { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };
export interface EmbeddedResource extends BlockExtras {
	type: "resource";
	resource: ResourceContents;
}
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface CallToolResult {
	content: ContentBlock[];
	structuredContent?: unknown;
	isError?: boolean;
	_meta?: Record<string, unknown>;
}

export interface Resource {
	uri: string;
	name: string;
	title?: string;
	description?: string;
	mimeType?: string;
	size?: number;
	_meta?: Record<string, unknown>;
	[key: string]: unknown;
}
export interface ResourceTemplate {
	uriTemplate: string;
	name: string;
	title?: string;
	description?: string;
	mimeType?: string;
	_meta?: Record<string, unknown>;
	[key: string]: unknown;
}
export interface ReadResourceResult {
	contents: ResourceContents[];
	_meta?: Record<string, unknown>;
}

export interface Root {
	uri: string;
	name?: string;
}

/** Content a model can consume directly. */
export type LlmContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };
