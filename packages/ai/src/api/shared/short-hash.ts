import { createHash } from "node:crypto";

/** A deterministic `length`-character hex digest of `text`, for shortening provider ids. */
export function shortHash(text: string, length = 8): string {
	return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/** Replaces every character outside `[a-zA-Z0-9_-]` with `_`. */
export function sanitizeIdPart(text: string): string {
	return text.replace(/[^a-zA-Z0-9_-]/g, "_");
}
