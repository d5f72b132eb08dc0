/** Shared vocabulary of the resource layer (docs/design/resources.md#resource-loader). */

export type ResourceType = "skill" | "prompt" | "theme" | "extension";

/**
 * Two resources of the same type and name from different places; the one loaded first wins and the other is
 * reported.
 */
export interface ResourceCollision {
	resourceType: ResourceType;
	name: string;
	winnerPath: string;
	loserPath: string;
}

/** A problem with one resource; loading always continues. */
export interface ResourceDiagnostic {
	type: "warning" | "error" | "collision";
	message: string;
	path?: string;
	collision?: ResourceCollision;
}

export type ResourceScope = "user" | "project" | "temporary";

/**
 * Where a loaded resource came from: its package source, scope (user, project or temporary), whether it came from
 * a package or the top level, and its base directory.
 */
export interface PathMetadata {
	/** Package source string, "local" (settings entry), "auto" (conventional dir), "builtin" or "cli". */
	source: string;
	scope: ResourceScope;
	origin: "package" | "top-level";
	/** Directory relative paths of the resource are resolved against. */
	baseDir?: string;
	changelogPath?: string;
	packageRoot?: string;
}

/** Where a loaded skill, prompt, theme, extension, tool or command came from. */
export type SourceInfo = { path: string } & PathMetadata;

/** Paths an extension contributes through `resources_discover`. */
export interface ResourceExtensionPaths {
	skillPaths?: { path: string; metadata: PathMetadata }[];
	promptPaths?: { path: string; metadata: PathMetadata }[];
	themePaths?: { path: string; metadata: PathMetadata }[];
}

/** Source info for a path: the recorded metadata, or a temporary top-level resource of that path. */
export function sourceInfoFor(path: string, metadata: PathMetadata | undefined): SourceInfo {
	return { path, ...(metadata ?? { source: "local", scope: "temporary", origin: "top-level" }) };
}

/** Source info for something that has no resource file of its own (SDK-made skills, prompts, tools). */
export function createSyntheticSourceInfo(
	path: string,
	options: {
		source: string;
		scope?: ResourceScope;
		origin?: PathMetadata["origin"];
		baseDir?: string;
		changelogPath?: string;
	},
): SourceInfo {
	return {
		path,
		source: options.source,
		scope: options.scope ?? "temporary",
		origin: options.origin ?? "top-level",
		...(options.baseDir !== undefined ? { baseDir: options.baseDir } : {}),
		...(options.changelogPath ? { changelogPath: options.changelogPath } : {}),
	};
}
