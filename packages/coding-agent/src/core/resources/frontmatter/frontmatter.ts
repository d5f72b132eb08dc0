import { stripBom } from "../../../config/fs/json-text.js";
import { parseYaml, type YamlValue } from "./yaml-subset.js";

/** The parsed YAML frontmatter of a skill, prompt template or context file, as key-value pairs. */
export type Frontmatter = { [key: string]: YamlValue };

export type FrontmatterResult =
	| { ok: true; hasFrontmatter: boolean; frontmatter: Frontmatter; body: string }
	| { ok: false; error: string };

/** CRLF/CR to LF and no byte order mark: the form every resource parser works on. */
export function normalizeNewlines(text: string): string {
	return stripBom(text).replace(/\r\n?/g, "\n");
}

/**
 * Splits `---`-delimited YAML frontmatter from a Markdown body. Without a closing delimiter the
 * whole text is the body. With frontmatter the body is trimmed; without, it is returned as is.
 */
export function readFrontmatter(text: string): FrontmatterResult {
	const normalized = normalizeNewlines(text);
	if (!normalized.startsWith("---")) return { ok: true, hasFrontmatter: false, frontmatter: {}, body: normalized };
	const close = normalized.indexOf("\n---", 3);
	if (close === -1) return { ok: true, hasFrontmatter: false, frontmatter: {}, body: normalized };
	const body = normalized.slice(close + 4);
	const parsed = parseYaml(normalized.slice(3, close));
	if (!parsed.ok) return { ok: false, error: parsed.error };
	const value = parsed.value;
	if (value === null) return { ok: true, hasFrontmatter: true, frontmatter: {}, body: body.trim() };
	if (typeof value !== "object" || Array.isArray(value)) {
		return { ok: false, error: "frontmatter must be a mapping of keys to values" };
	}
	return { ok: true, hasFrontmatter: true, frontmatter: value, body: body.trim() };
}

/** Frontmatter and body as Pi's `parseFrontmatter` returns them (docs/pi-compatibility.md). */
export interface ParsedFrontmatter<T extends Record<string, unknown> = Record<string, unknown>> {
	frontmatter: T;
	body: string;
}

/**
 * Pi's `parseFrontmatter` for extensions and SDK programs: like `readFrontmatter`, but throws where
 * that returns an error (invalid YAML, or frontmatter that is not a mapping).
 */
export function parseFrontmatter<T extends Record<string, unknown> = Record<string, unknown>>(
	content: string,
): ParsedFrontmatter<T> {
	const parsed = readFrontmatter(content);
	if (!parsed.ok) throw new Error(`Invalid frontmatter: ${parsed.error}`);
	return { frontmatter: parsed.frontmatter as T, body: parsed.body };
}

/** Frontmatter with the delimiters removed, or the text itself when it has none (never fails). */
export function stripFrontmatter(text: string): string {
	const parsed = readFrontmatter(text);
	if (parsed.ok) return parsed.body;
	const normalized = normalizeNewlines(text);
	return normalized.slice(normalized.indexOf("\n---", 3) + 4).trim();
}
