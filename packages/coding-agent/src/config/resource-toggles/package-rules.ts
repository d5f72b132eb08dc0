import type { ResourceKind } from "../settings/resource-paths.js";
import type { PackageSource, PackageSourceObject } from "../settings/types.js";
import { overrideEntry, overrideState, type ProjectOverrideState, withoutOverrides } from "./override-entries.js";

/**
 * A filter equivalent to `[]` (none of the type) that `+` entries can still add to: with no
 * plain include left, a bare `+x` list would enable everything the package offers.
 */
const NONE = "!**";
const FILTER_KINDS: readonly ResourceKind[] = ["extensions", "skills", "prompts", "themes"];

function toObject(entry: PackageSource): PackageSourceObject {
	return typeof entry === "string" ? { source: entry } : { ...entry };
}

function hasFilters(entry: PackageSourceObject): boolean {
	return FILTER_KINDS.some((kind) => entry[kind] !== undefined);
}

/**
 * One type's filter with the overrides naming `pattern` replaced by `override` (or just removed).
 * An emptied list is dropped; an explicit `[]` of a loading entry keeps meaning "none".
 */
function nextFilter(
	current: readonly string[] | undefined,
	pattern: string,
	override: string | undefined,
	delta: boolean,
): string[] | undefined {
	const kept = withoutOverrides(current ?? [], pattern);
	if (override === undefined) {
		if (kept.length === 0) return current?.length === 0 ? [] : undefined;
		return kept.length === 1 && kept[0] === NONE ? [] : kept;
	}
	const base = !delta && current?.length === 0 ? [NONE] : kept;
	return [...base, override];
}

/** The entry with the new filter for `kind`; a string again when no filter remains. */
function withFilter(entry: PackageSource, kind: ResourceKind, filter: string[] | undefined): PackageSource {
	const object = toObject(entry);
	if (filter === undefined) delete object[kind];
	else object[kind] = filter;
	const plain = object.autoload === undefined && !hasFilters(object);
	return plain ? object.source : object;
}

/**
 * Global scope (docs/design/resources.md#config-write-rules): in the package entry at `index`, the type's filter gets
 * `+pattern`/`-pattern` (pattern relative to the package root) instead of earlier overrides of it.
 */
export function withPackageOverride(
	packages: readonly PackageSource[],
	index: number,
	kind: ResourceKind,
	pattern: string,
	enable: boolean,
): PackageSource[] {
	const entry = toObject(packages[index]!);
	const filter = nextFilter(entry[kind], pattern, overrideEntry(pattern, enable), entry.autoload === false);
	return packages.map((item, i) => (i === index ? withFilter(item, kind, filter) : item));
}

/** The project-scope state of a package resource in the project entry (inherit without one). */
export function projectPackageState(
	entry: PackageSource | undefined,
	kind: ResourceKind,
	pattern: string,
): ProjectOverrideState {
	if (entry === undefined || typeof entry === "string") return "inherit";
	return overrideState(entry[kind] ?? [], pattern);
}

/**
 * Project scope: `load`/`unload` write into the project entry at `index`; without one (`-1`, the
 * package is configured for the user only) a delta entry `{source: deltaSource, autoload: false}`
 * is added. Back at `inherit` a delta entry without filters is removed.
 */
export function withProjectPackageState(
	packages: readonly PackageSource[],
	index: number,
	deltaSource: string,
	kind: ResourceKind,
	pattern: string,
	state: ProjectOverrideState,
): PackageSource[] {
	const override = state === "inherit" ? undefined : overrideEntry(pattern, state === "load");
	if (index === -1) {
		if (override === undefined) return [...packages];
		return [...packages, { source: deltaSource, autoload: false, [kind]: [override] }];
	}
	const entry = toObject(packages[index]!);
	const delta = entry.autoload === false;
	const updated = withFilter(packages[index]!, kind, nextFilter(entry[kind], pattern, override, delta));
	const emptyDelta = delta && typeof updated !== "string" && !hasFilters(updated);
	if (emptyDelta) return packages.filter((_, i) => i !== index);
	return packages.map((item, i) => (i === index ? updated : item));
}
