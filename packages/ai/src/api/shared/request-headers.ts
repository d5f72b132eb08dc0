import type { ProviderResponseInfo } from "../../types/options.js";

/** The value of `name` in a merged header record, compared case-insensitively. */
export function headerValue(headers: Readonly<Record<string, string | null>>, name: string): string | null | undefined {
	const lower = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === lower) return value;
	return undefined;
}

/** True when one of `names` carries a non-empty value (a header that authenticates by itself). */
export function hasHeader(headers: Readonly<Record<string, string | null>>, names: readonly string[]): boolean {
	return names.some((name) => Boolean(headerValue(headers, name)));
}

/** What `onResponse` receives: the status and lower-cased header names in a plain record. */
export function responseInfo(response: Response): ProviderResponseInfo {
	const headers: Record<string, string> = {};
	response.headers.forEach((value, name) => {
		headers[name.toLowerCase()] = value;
	});
	return { status: response.status, headers };
}
