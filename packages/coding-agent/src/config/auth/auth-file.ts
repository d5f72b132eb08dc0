import type { Credential } from "@tau/ai";
import { parseJsonFile } from "../fs/json-file.js";
import { isPlainObject, stripBom } from "../fs/json-text.js";

export type AuthFile = Record<string, Credential>;

/**
 * Parses auth.json text leniently (entries are not validated); missing or empty text is `{}`. A
 * syntax error names `path`, line and column.
 */
export function parseAuthFile(text: string | undefined, path = "auth.json"): AuthFile {
	if (text === undefined) return {};
	if (stripBom(text).trim() === "") return {};
	const parsed = parseJsonFile(path, text);
	if (!isPlainObject(parsed)) throw new Error(`Invalid auth.json: expected an object (${path})`);
	return parsed as AuthFile;
}

/** Strict structural validation used by the read-only store. */
export function validateAuthFile(data: AuthFile): AuthFile {
	for (const [providerId, credential] of Object.entries(data)) {
		if (!isValidCredential(credential)) throw new Error(`Invalid auth.json credential for provider "${providerId}"`);
	}
	return data;
}

function isValidCredential(value: unknown): boolean {
	if (!isPlainObject(value)) return false;
	if (value.type === "api_key") {
		if (value.key !== undefined && typeof value.key !== "string") return false;
		if (value.env === undefined) return true;
		return isPlainObject(value.env) && Object.values(value.env).every((entry) => typeof entry === "string");
	}
	if (value.type === "oauth") {
		return (
			typeof value.access === "string" &&
			typeof value.refresh === "string" &&
			typeof value.expires === "number" &&
			Number.isFinite(value.expires)
		);
	}
	return false;
}

export function serializeAuthFile(data: AuthFile): string {
	return JSON.stringify(data, null, 2);
}
