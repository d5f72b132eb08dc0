import { fileURLToPath } from "node:url";
import { pathKey, resolveResourcePath } from "../loader/path-key.js";

export type PackageSourceKind = "npm" | "git" | "local";

export interface ParsedPackageSource {
	kind: PackageSourceKind;
	/** Identity ignoring version and ref: `npm:<name>`, `git:<location>`, `local:<path key>`. */
	identity: string;
	/** npm package name. */
	name?: string;
	/** Local sources: the resolved directory or file. */
	path?: string;
}

const GIT_PREFIX = /^(git:|github:|https?:\/\/|ssh:\/\/|git:\/\/)/;

/** Classifies a settings/CLI package source; relative local paths resolve against `baseDir`. */
export function parsePackageSource(source: string, baseDir: string): ParsedPackageSource {
	if (source.startsWith("npm:")) {
		const spec = source.slice(4);
		const match = /^(@?[^@]+(?:\/[^@]+)?)(?:@(.+))?$/.exec(spec);
		const name = match?.[1] ?? spec;
		return { kind: "npm", identity: `npm:${name}`, name };
	}
	if (GIT_PREFIX.test(source)) {
		const location = source
			.replace(/^(git:|github:)/, (prefix) => (prefix === "github:" ? "github.com/" : ""))
			.replace(/^[a-z+]+:\/\//, "")
			.replace(/^[^@/]+@([^:/]+):/, "$1/")
			.replace(/@[^/@]*$/, "")
			.replace(/\.git$/, "");
		return { kind: "git", identity: `git:${location}` };
	}
	const path = source.startsWith("file://") ? fileURLToPath(source) : resolveResourcePath(source, baseDir);
	return { kind: "local", identity: `local:${pathKey(path)}`, path };
}
