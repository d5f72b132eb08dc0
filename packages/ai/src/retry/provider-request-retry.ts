import { abortableSleep } from "../utils/abort.js";
import { errorMessage } from "../utils/error-message.js";

/** How a provider request is retried after a retryable failure: retry count, delay cap and abort signal. */
export interface ProviderRequestRetryOptions {
	/** Retries after the first attempt; default 0. */
	maxRetries?: number;
	/** Cap on a server-requested delay; default 60000; 0 disables the cap. */
	maxRetryDelayMs?: number;
	signal?: AbortSignal;
	/** Statuses that fail at once. */
	noRetryStatuses?: readonly number[];
}

const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;

type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined;

function header(headers: HeaderSource, name: string): string | undefined {
	if (!headers) return undefined;
	if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
	}
	return undefined;
}

function statusOf(error: unknown): number | undefined {
	const status = (error as { status?: unknown } | null)?.status;
	return typeof status === "number" ? status : undefined;
}

function headersOf(error: unknown): HeaderSource {
	return (error as { headers?: HeaderSource } | null)?.headers;
}

function shouldRetry(error: unknown, noRetryStatuses: readonly number[]): boolean {
	const explicit = header(headersOf(error), "x-should-retry");
	if (explicit === "true") return true;
	if (explicit === "false") return false;
	const status = statusOf(error);
	if (status === undefined) return true;
	if (noRetryStatuses.includes(status)) return false;
	return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The delay the server asked for, in ms, if any. */
function serverDelayMs(error: unknown): number | undefined {
	const headers = headersOf(error);
	const ms = Number.parseFloat(header(headers, "retry-after-ms") ?? "");
	if (Number.isFinite(ms) && ms >= 0) return ms;
	const after = header(headers, "retry-after");
	if (after === undefined) return undefined;
	const seconds = Number.parseFloat(after);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	const date = Date.parse(after);
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function backoffMs(retryIndex: number): number {
	const base = Math.min(0.5 * 2 ** retryIndex, 8) * 1000;
	return base * (1 - Math.random() * 0.25);
}

/**
 * Opt-in request-level retry used by the adapters around the request (not the streaming body); each retry
 * calls `request` again. SDK retries stay disabled because SDK backoff timers ignore the abort signal.
 */
export async function retryProviderRequest<T>(
	request: () => Promise<T>,
	options: ProviderRequestRetryOptions = {},
): Promise<T> {
	const maxRetries = options.maxRetries ?? 0;
	const maxDelay = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
	for (let retryIndex = 0; ; retryIndex++) {
		try {
			return await request();
		} catch (error) {
			if (retryIndex >= maxRetries || options.signal?.aborted) throw error;
			if (!shouldRetry(error, options.noRetryStatuses ?? [])) throw error;
			const requested = serverDelayMs(error);
			if (requested !== undefined && maxDelay > 0 && requested > maxDelay) {
				throw new Error(
					`Server requested ${Math.ceil(requested / 1000)}s retry delay (max: ${Math.ceil(maxDelay / 1000)}s). ${errorMessage(error)}`,
					{ cause: error },
				);
			}
			await abortableSleep(requested ?? backoffMs(retryIndex), options.signal);
		}
	}
}
