import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// Unicode space separators models sometimes emit instead of an ASCII space.
const UNICODE_SPACES = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;

/** Resolves a tool path argument against `cwd` (docs/design/tools.md#path-resolution). The cwd is a default, not a sandbox. */
export function resolveToolPath(input: string, cwd: string): string {
	let path = input.replace(UNICODE_SPACES, " ");
	if (path.startsWith("@")) path = path.slice(1);
	if (process.platform === "win32" && /^\/[a-zA-Z]\//.test(path)) path = `${path[1]}:${path.slice(2)}`;
	if (path === "~") return homedir();
	if (path.startsWith("~/") || (process.platform === "win32" && path.startsWith("~\\"))) {
		return join(homedir(), path.slice(2));
	}
	if (path.startsWith("file://")) return fileURLToPath(path);
	return isAbsolute(path) ? normalize(path) : resolve(cwd, path);
}

/** The macOS filename variants `read` tries when the resolved path does not exist, in order. */
export function macOsPathVariants(path: string): string[] {
	const narrowSpace = path.replace(/ (AM|PM)/g, "\u202f$1");
	const nfd = path.normalize("NFD");
	const curly = path.replace(/'/g, "\u2019");
	const nfdCurly = nfd.replace(/'/g, "\u2019");
	return [narrowSpace, nfd, curly, nfdCurly].filter((variant) => variant !== path);
}

/** `resolveToolPath` plus the macOS variants: the first existing candidate wins. */
export function resolveReadPath(input: string, cwd: string): string {
	const resolved = resolveToolPath(input, cwd);
	if (existsSync(resolved)) return resolved;
	return macOsPathVariants(resolved).find((variant) => existsSync(variant)) ?? resolved;
}
