import { createHash } from "node:crypto";
import { join, relative, resolve, sep } from "node:path";
import { getProjectConfigDir } from "../../../config/paths.js";
import type { ResourceScope } from "../types.js";
import type { ParsedPackageSource } from "./package-source.js";

export interface InstallLocation {
	/** The directory every path of this scope and kind must stay inside. */
	root: string;
	/** Where the package itself lives once installed. */
	path: string;
	/** npm only: the `--prefix` directory whose `node_modules` holds the package. */
	prefix?: string;
}

/** First 8 hex digits of SHA-256, so each temporary source (and pinned ref) gets its own folder. */
function shortHash(text: string): string {
	return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

function inside(root: string, path: string): boolean {
	const rel = relative(resolve(root), resolve(path));
	return rel !== "" && !rel.startsWith("..") && !rel.startsWith(sep) && !rel.includes(`..${sep}`);
}

/**
 * Where an npm or git package of a scope is installed (docs/design/resources.md#install-locations). Project storage
 * requires a trusted project; a computed path that leaves its install root is refused.
 */
export function packageInstallLocation(
	source: Exclude<ParsedPackageSource, { kind: "local" }>,
	scope: ResourceScope,
	dirs: { agentDir: string; cwd: string; projectTrusted: boolean },
): InstallLocation {
	if (scope === "project" && !dirs.projectTrusted) {
		throw new Error("Project is not trusted; refusing to access project package storage");
	}
	const base = scope === "project" ? getProjectConfigDir(dirs.cwd) : dirs.agentDir;
	const temporaryRoot = join(dirs.agentDir, "tmp", "extensions");
	let location: InstallLocation;
	if (source.kind === "npm") {
		const key = `npm-${source.name}${source.version ? `@${source.version}` : ""}`;
		const prefix = scope === "temporary" ? join(temporaryRoot, "npm", shortHash(key)) : join(base, "npm");
		const root = scope === "temporary" ? temporaryRoot : prefix;
		location = { root, prefix, path: join(prefix, "node_modules", ...source.name.split("/")) };
	} else {
		const key = `git-${source.host}/${source.path}${source.ref ? `@${source.ref}` : ""}`;
		const root = scope === "temporary" ? temporaryRoot : join(base, "git");
		const prefix = scope === "temporary" ? join(root, `git-${source.host}`, shortHash(key)) : join(root, source.host);
		location = { root, path: join(prefix, ...source.path.split("/")) };
	}
	if (!inside(location.root, location.path)) {
		throw new Error(`Refusing to use path outside package install root: ${location.path}`);
	}
	return location;
}
