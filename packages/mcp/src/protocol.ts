/** Protocol version tau requests. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";
/** Versions tau accepts from a server's `initialize` answer. */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
/** One of the MCP protocol versions in `SUPPORTED_PROTOCOL_VERSIONS`. */
export type SupportedProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

export type JsonRpcId = string | number;
/** A JSON-RPC 2.0 call that expects a response with the same `id`. */
export interface JsonRpcRequest {
	jsonrpc: "2.0";
	id: JsonRpcId;
	method: string;
	params?: Record<string, unknown>;
}
/** A JSON-RPC 2.0 message that expects no response. */
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
/** The answer to a JSON-RPC request: a `result` or an `error`. */
export interface JsonRpcResponse {
	jsonrpc: "2.0";
	id: JsonRpcId | null;
	result?: unknown;
	error?: JsonRpcErrorObject;
}
/** Any JSON-RPC 2.0 message a transport carries: request, notification or response. */
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

/** Name and version a client or server reports about itself during `initialize`. */
export interface Implementation {
	name: string;
	version: string;
	title?: string;
}

/**
 * What a server supports, from its `initialize` answer: tools, resources, prompts, logging and their change
 * notifications.
 */
export interface ServerCapabilities {
	tools?: { listChanged?: boolean };
	resources?: { subscribe?: boolean; listChanged?: boolean };
	prompts?: { listChanged?: boolean };
	logging?: Record<string, unknown>;
	experimental?: Record<string, unknown>;
	[key: string]: unknown;
}

/** A server's `initialize` answer: the agreed protocol version, its capabilities, identity and usage instructions. */
export interface InitializeResult {
	protocolVersion: string;
	capabilities: ServerCapabilities;
	serverInfo: Implementation;
	instructions?: string;
}

/**
 * Hints a server gives about a tool's behaviour (read-only, destructive, idempotent, open-world); untrusted, for
 * display and policy.
 */
export interface ToolAnnotations {
	title?: string;
	readOnlyHint?: boolean;
	destructiveHint?: boolean;
	idempotentHint?: boolean;
	openWorldHint?: boolean;
}

/** A tool a server lists: its name, description, JSON Schema of the arguments (and result) and behaviour hints. */
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
/** Text a tool returned. */
export interface TextContent extends BlockExtras {
	type: "text";
	text: string;
}
/** A base64 image a tool returned, with its MIME type. */
export interface ImageContent extends BlockExtras {
	type: "image";
	data: string;
	mimeType: string;
}
/** Base64 audio a tool returned, with its MIME type. */
export interface AudioContent extends BlockExtras {
	type: "audio";
	data: string;
	mimeType: string;
}
/** A reference to a resource the client can read with `resources/read`, instead of its contents. */
export interface ResourceLink extends BlockExtras {
	type: "resource_link";
	uri: string;
	name: string;
	title?: string;
	description?: string;
	mimeType?: string;
	size?: number;
}
/** The contents of a resource: text or base64 `blob`, with its URI and MIME type. */
export type ResourceContents =
	| { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
	| { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };
/** A resource's contents included inline in a tool result. */
export interface EmbeddedResource extends BlockExtras {
	type: "resource";
	resource: ResourceContents;
}
/** One block of MCP tool or prompt content: text, image, audio, a resource link or an embedded resource. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/**
 * What a server answers to `tools/call`: content blocks, optional structured content, and `isError` for a tool-level
 * failure.
 */
export interface CallToolResult {
	content: ContentBlock[];
	structuredContent?: unknown;
	isError?: boolean;
	_meta?: Record<string, unknown>;
}

/** A resource a server lists: its URI, name, description and MIME type. */
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
/** A parameterized resource a server lists: a URI template (RFC 6570) with its name and description. */
export interface ResourceTemplate {
	uriTemplate: string;
	name: string;
	title?: string;
	description?: string;
	mimeType?: string;
	_meta?: Record<string, unknown>;
	[key: string]: unknown;
}
/** A server's `resources/read` answer: the contents of the resource. */
export interface ReadResourceResult {
	contents: ResourceContents[];
	_meta?: Record<string, unknown>;
}

/** A directory or file the client exposes to servers through `roots/list`. */
export interface Root {
	uri: string;
	name?: string;
}

/** Content a model can consume directly. */
export type LlmContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };
