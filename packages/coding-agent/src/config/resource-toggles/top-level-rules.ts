import { overrideEntry, type ProjectOverrideState, withoutOverrides } from "./override-entries.js";

/**
 * Global scope (docs/design/resources.md#config-write-rules): the overrides naming `pattern` give way to one `+pattern`
 * or `-pattern` at the end. A plain entry equal to the pattern stays: it is what collects the
 * file, and without it the `+`/`-` entry would have nothing to decide about.
 */
export function withTopLevelOverride(entries: readonly string[], pattern: string, enable: boolean): string[] {
	return [...withoutOverrides(entries, pattern), overrideEntry(pattern, enable)];
}

/**
 * Project scope: `load`/`unload` write `+pattern`/`-pattern` into the project array, `inherit`
 * removes them. `plainEntry` is the absolute path of an item the user scope provides: it is added
 * before the override (a project override only decides about files the project collects) and
 * removed again on the way back to inherit.
 */
export function withProjectTopLevelState(
	entries: readonly string[],
	pattern: string,
	state: ProjectOverrideState,
	plainEntry?: string,
): string[] {
	const kept = withoutOverrides(entries, pattern);
	if (state === "inherit") return plainEntry === undefined ? kept : kept.filter((entry) => entry !== plainEntry);
	const collected = plainEntry === undefined || kept.includes(plainEntry) ? kept : [...kept, plainEntry];
	return [...collected, overrideEntry(pattern, state === "load")];
}
