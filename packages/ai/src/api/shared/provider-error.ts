import { describeThrown } from "../../stream/failure.js";

const MAX_BODY_CHARS = 4000;
const MAX_CAUSE_DEPTH = 5;

/** The status and body text an SDK/HTTP error carries, when it carries them. */
export interface NormalizedProviderError {
	message: string;
	status?: number;
	body?: string;
	error: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (!isRecord(value) || Array.isArray(value)) return false;
	const proto = Object.getPrototypeOf(value);
	return proto === Object.prototype || proto === null;
}

function readStatus(error: Record<string, unknown>): number | undefined {
	for (const key of ["statusCode", "status", "httpStatus"]) {
		const value = error[key];
		if (typeof value === "number" && Number.isFinite(value)) return value;
		if (typeof value === "string" && /^\d{3}$/.test(value)) return Number(value);
	}
	return undefined;
}

function readBody(error: Record<string, unknown>): string | undefined {
	let text: string | undefined;
	if (typeof error.body === "string") text = error.body;
	else if (isPlainObject(error.error) && Object.keys(error.error).length > 0) text = JSON.stringify(error.error);
	else if (typeof error.error === "string") text = error.error;
	text = text?.trim();
	if (!text) return undefined;
	if (text.length <= MAX_BODY_CHARS) return text;
	return `${text.slice(0, MAX_BODY_CHARS)}... [truncated ${text.length - MAX_BODY_CHARS} chars]`;
}

/** Extracts status and body text from whatever an SDK threw (docs/design/ai-adapters.md#adapter-skeleton). */
export function normalizeProviderError(error: unknown): NormalizedProviderError {
	const normalized: NormalizedProviderError = { message: describeThrown(error), error };
	if (!isRecord(error)) return normalized;
	const status = readStatus(error);
	if (status !== undefined) normalized.status = status;
	const body = readBody(error);
	if (body !== undefined) normalized.body = body;
	return normalized;
}

/** `<prefix> (<status>): <body>` keeping the provider's wording, so retry/overflow patterns match it. */
export function formatProviderError(error: NormalizedProviderError, prefix?: string): string {
	const { status, body } = error;
	const message = withCauseDetail(error.error, error.message);
	if (status === undefined || body === undefined || message.includes(body)) {
		return prefix && status !== undefined ? `${prefix} (${status}): ${message}` : message;
	}
	return prefix ? `${prefix} (${status}): ${body}` : `${status}: ${body}`;
}

/** Appends the deepest `cause` detail so "fetch failed" keeps the real reason (e.g. ECONNREFUSED). */
export function withCauseDetail(error: unknown, message = describeThrown(error)): string {
	let deepest: { message: string; code?: unknown } | undefined;
	let current: unknown = isRecord(error) ? error.cause : undefined;
	for (let depth = 0; depth < MAX_CAUSE_DEPTH && isRecord(current); depth++) {
		const causeMessage = typeof current.message === "string" ? current.message : "";
		if (causeMessage || current.code !== undefined) deepest = { message: causeMessage, code: current.code };
		current = current.cause;
	}
	if (!deepest) return message;
	const code = typeof deepest.code === "string" || typeof deepest.code === "number" ? String(deepest.code) : "";
	let detail = deepest.message;
	if (code && !detail.includes(code)) detail = detail ? `${detail} (${code})` : code;
	if (!detail || message.includes(detail)) return message;
	return `${message}: ${detail}`;
}
