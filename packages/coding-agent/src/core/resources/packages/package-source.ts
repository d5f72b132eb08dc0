import { fileURLToPath } from "node:url";
import { pathKey, resolveResourcePath } from "../loader/path-key.js";

export type PackageSourceKind = "npm" | "git" | "local";

export type ParsedPackageSource =
	| {
			kind: "npm";
			/** Identity ignoring the version: `npm:<name>`. */
			identity: string;
			name: string;
			version?: string;
			/** An exact version (`1.2.3`), as opposed to a range or a tag. */
			pinned: boolean;
	  }
	| {
			kind: "git";
			/** Identity ignoring the ref and the transport: `git:<host>/<path>`. */
			identity: string;
			host: string;
			/** Repository path without a `.git` suffix (`owner/repo`). */
			path: string;
			ref?: string;
			/** What `git clone` receives. */
			repo: string;
			pinned: boolean;
	  }
	| { kind: "local"; identity: string; path: string };

const EXACT_VERSION = /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

function parseNpm(spec: string): ParsedPackageSource {
	const match = /^(@?[^@]+(?:\/[^@]+)?)(?:@(.+))?$/.exec(spec);
	const name = match?.[1] ?? spec;
	const version = match?.[2];
	return {
		kind: "npm",
		identity: `npm:${name}`,
		name,
		...(version === undefined ? {} : { version }),
		pinned: version !== undefined && EXACT_VERSION.test(version),
	};
}

/** Host and path must be plain: no NUL, backslash, leading slash, `..` segment or bad %-escape. */
function isSafe(host: string, path: string): boolean {
	for (const part of [host, path]) {
		if (part.includes("\0") || part.includes("\\") || part.startsWith("/")) return false;
		if (part.split("/").some((segment) => segment === "..")) return false;
		try {
			decodeURIComponent(part);
		} catch {
			return false;
		}
	}
	return host !== "" && !host.includes("/") && path.split("/").filter((segment) => segment !== "").length >= 2;
}

/** Splits a trailing `@ref` off a repository path. */
function splitRef(path: string): { path: string; ref?: string } {
	const at = path.lastIndexOf("@");
	if (at <= 0) return { path };
	const ref = path.slice(at + 1);
	return ref === "" ? { path } : { path: path.slice(0, at), ref };
}

function gitSource(host: string, rawPath: string, repoFor: (path: string) => string): ParsedPackageSource | undefined {
	const { path: withSuffix, ref } = splitRef(rawPath);
	const path = withSuffix.replace(/\.git$/, "").replace(/\/+$/, "");
	if (!isSafe(host, path)) return undefined;
	return {
		kind: "git",
		identity: `git:${host}/${path}`,
		host,
		path,
		...(ref === undefined ? {} : { ref }),
		repo: repoFor(path),
		pinned: ref !== undefined,
	};
}

/** Git sources: `git:` forms, `github:` shorthand and explicit protocol URLs; undefined otherwise. */
function parseGit(source: string): ParsedPackageSource | undefined {
	if (source.startsWith("github:")) return parseGit(`git:github.com/${source.slice("github:".length)}`);
	const url = /^(https?|ssh|git):\/\/(?:([^@/]+)@)?([^/]+)\/(.*)$/.exec(source.replace(/^git:(?=[a-z+]+:\/\/)/, ""));
	if (url) {
		const [, protocol, user, host, path] = url as unknown as [string, string, string | undefined, string, string];
		const prefix = `${protocol}://${user ? `${user}@` : ""}${host}`;
		return gitSource(host, path, (clean) => `${prefix}/${clean}`);
	}
	if (!source.startsWith("git:")) return undefined;
	const rest = source.slice("git:".length);
	const scp = /^([^@/:]+)@([^:/]+):(.*)$/.exec(rest);
	if (scp) {
		const [, user, host, path] = scp as unknown as [string, string, string, string];
		return gitSource(host, path, (clean) => `${user}@${host}:${clean}`);
	}
	const slash = rest.indexOf("/");
	if (slash === -1) return undefined;
	const host = rest.slice(0, slash);
	// Shorthand without a protocol must name a real host.
	if (!host.includes(".") && host !== "localhost" && !host.startsWith("localhost:")) return undefined;
	return gitSource(host, rest.slice(slash + 1), (clean) => `https://${host}/${clean}`);
}

/**
 * Classifies a settings or CLI package source. Relative local paths resolve against `baseDir`;
 * a git-looking source that is unsafe or malformed falls back to a local path (and then fails as
 * a missing one).
 */
export function parsePackageSource(source: string, baseDir: string): ParsedPackageSource {
	if (source.startsWith("npm:")) return parseNpm(source.slice("npm:".length));
	const git = parseGit(source);
	if (git) return git;
	const path = source.startsWith("file://") ? fileURLToPath(source) : resolveResourcePath(source, baseDir);
	return { kind: "local", identity: `local:${pathKey(path)}`, path };
}
