import type { StreamFn } from "../types/config.js";

let defaultStreamFn: StreamFn | undefined;

/** Installs (or with `undefined` clears) the process-wide stream function used when none is passed. */
export function setDefaultStreamFn(fn: StreamFn | undefined): void {
	defaultStreamFn = fn;
}

export function getDefaultStreamFn(): StreamFn {
	if (!defaultStreamFn) {
		throw new Error("No default stream function configured. Pass streamFn explicitly or call setDefaultStreamFn().");
	}
	return defaultStreamFn;
}
