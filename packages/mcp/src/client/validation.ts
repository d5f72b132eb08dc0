import { JSON_RPC_ERROR_CODES, McpError } from "../errors.js";
import type {
	CallToolResult,
	ContentBlock,
	InitializeResult,
	ReadResourceResult,
	Resource,
	ResourceContents,
	ResourceTemplate,
	Tool,
} from "../protocol.js";

const MAX_PAGES = 1000;

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(message: string): McpError {
	return new McpError(JSON_RPC_ERROR_CODES.invalidRequest, message);
}

export function validateInitializeResult(raw: unknown): InitializeResult {
	if (!isObject(raw)) throw invalid("initialize result must be an object");
	if (typeof raw.protocolVersion !== "string") throw invalid("initialize result lacks protocolVersion");
	if (!isObject(raw.capabilities)) throw invalid("initialize result lacks capabilities");
	const info = raw.serverInfo;
	if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string") {
		throw invalid("initialize result lacks serverInfo.name/version");
	}
	if (raw.instructions !== undefined && typeof raw.instructions !== "string") {
		throw invalid("initialize instructions must be a string");
	}
	return raw as unknown as InitializeResult;
}

export function validateTool(item: unknown): Tool {
	if (!isObject(item) || typeof item.name !== "string" || !isObject(item.inputSchema)) {
		throw invalid("tools/list item needs a name and an object inputSchema");
	}
	return item as unknown as Tool;
}

export function validateResource(item: unknown): Resource {
	if (!isObject(item) || typeof item.uri !== "string") throw invalid("resources/list item needs a uri");
	return { ...item, name: typeof item.name === "string" ? item.name : item.uri } as Resource;
}

export function validateResourceTemplate(item: unknown): ResourceTemplate {
	if (!isObject(item) || typeof item.uriTemplate !== "string") {
		throw invalid("resources/templates/list item needs a uriTemplate");
	}
	return { ...item, name: typeof item.name === "string" ? item.name : item.uriTemplate } as ResourceTemplate;
}

export interface Page<T> {
	items: T[];
	nextCursor?: string;
}

/** Reads one page of `key` items; an absent, `null` or empty `nextCursor` ends the listing. */
export function readPage<T>(raw: unknown, key: string, validate: (item: unknown) => T): Page<T> {
	if (!isObject(raw)) throw invalid("list result must be an object");
	const list = raw[key];
	if (!Array.isArray(list)) throw invalid(`list result lacks ${key}[]`);
	const page: Page<T> = { items: list.map(validate) };
	if (typeof raw.nextCursor === "string" && raw.nextCursor !== "") page.nextCursor = raw.nextCursor;
	return page;
}

/** Follows `nextCursor` across at most 1000 pages; a repeated cursor is a server bug, not a loop. */
export async function paginate<T>(
	fetchPage: (cursor: string | undefined) => Promise<unknown>,
	key: string,
	validate: (item: unknown) => T,
): Promise<T[]> {
	const items: T[] = [];
	const seen = new Set<string>();
	let cursor: string | undefined;
	for (let pageCount = 0; pageCount < MAX_PAGES; pageCount++) {
		const page = readPage(await fetchPage(cursor), key, validate);
		items.push(...page.items);
		if (page.nextCursor === undefined) return items;
		if (seen.has(page.nextCursor)) throw invalid(`${key} pagination repeated cursor ${page.nextCursor}`);
		seen.add(page.nextCursor);
		cursor = page.nextCursor;
	}
	throw invalid(`${key} pagination exceeded ${MAX_PAGES} pages`);
}

export function validateCallToolResult(raw: unknown): CallToolResult {
	if (!isObject(raw)) throw invalid("tools/call result must be an object");
	if (raw.content !== undefined && !Array.isArray(raw.content)) throw invalid("tools/call content must be an array");
	return { ...raw, content: (raw.content ?? []) as ContentBlock[] } as CallToolResult;
}

export function validateReadResourceResult(raw: unknown): ReadResourceResult {
	if (!isObject(raw) || !Array.isArray(raw.contents)) throw invalid("resources/read result lacks contents[]");
	for (const item of raw.contents) {
		if (
			!isObject(item) ||
			typeof item.uri !== "string" ||
			(typeof item.text !== "string" && typeof item.blob !== "string")
		) {
			throw invalid("resources/read contents need a uri and text or blob");
		}
	}
	return raw as unknown as ReadResourceResult & { contents: ResourceContents[] };
}
