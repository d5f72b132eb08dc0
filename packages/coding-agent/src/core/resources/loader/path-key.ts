import { realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { expandTilde } from "../../../config/paths.js";

/** `builtin:<name>` and `<inline:...>`-style names are resource identities, not files. */
export function isSyntheticPath(path: string): boolean {
	return path.startsWith("builtin:") || /^<.*>$/.test(path);
}

/**
 * The identity of a resource path: synthetic paths as they are; files by real path (resolved
 * path when missing), lower-cased on Windows, so two routes to one file are one resource.
 */
export function pathKey(path: string, platform: NodeJS.Platform = process.platform): string {
	if (isSyntheticPath(path)) return path;
	let key: string;
	try {
		// The native call is one syscall; the JS fallback lstat()s every path component.
		key = realpathSync.native(path);
	} catch {
		key = resolve(path);
	}
	return platform === "win32" ? key.toLowerCase() : key;
}

/** Tilde-expands and resolves a path against `baseDir`; synthetic paths are kept as they are. */
export function resolveResourcePath(path: string, baseDir: string): string {
	if (isSyntheticPath(path)) return path;
	const expanded = expandTilde(path);
	return isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
}
