/** Where an item stands in the project scope of `tau config`: no override, forced on, forced off. */
export type ProjectOverrideState = "inherit" | "load" | "unload";

const CYCLE: Record<ProjectOverrideState, ProjectOverrideState> = {
	inherit: "load",
	load: "unload",
	unload: "inherit",
};

/** The state a project-scope toggle moves to (inherit → load → unload → inherit). */
export function nextProjectState(state: ProjectOverrideState): ProjectOverrideState {
	return CYCLE[state];
}

/** `+pattern` for load, `-pattern` for unload. */
export function overrideEntry(pattern: string, enable: boolean): string {
	return `${enable ? "+" : "-"}${pattern}`;
}

function sameTarget(a: string, b: string): boolean {
	return a.replace(/^\.\//, "") === b.replace(/^\.\//, "");
}

/** Whether `entry` is a `+`, `-` or `!` entry naming exactly `pattern`. */
export function isOverrideOf(entry: string, pattern: string): boolean {
	return /^[!+-]/.test(entry) && sameTarget(entry.slice(1), pattern);
}

/** The entries without the overrides that name `pattern`; plain entries and other overrides stay. */
export function withoutOverrides(entries: readonly string[], pattern: string): string[] {
	return entries.filter((entry) => !isOverrideOf(entry, pattern));
}

/** The last `+`/`-` entry naming `pattern` decides; none means the item inherits. */
export function overrideState(entries: readonly string[], pattern: string): ProjectOverrideState {
	let state: ProjectOverrideState = "inherit";
	for (const entry of entries) {
		if (entry.startsWith("+") && sameTarget(entry.slice(1), pattern)) state = "load";
		else if (entry.startsWith("-") && sameTarget(entry.slice(1), pattern)) state = "unload";
	}
	return state;
}
