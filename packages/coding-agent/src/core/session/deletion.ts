import { unlinkSync } from "node:fs";
import { resolve } from "node:path";
import type { SessionManager } from "./manager.js";

/** Deletes a session file, refusing the one `current` has open (its writer and lock still use it). */
export function deleteSessionFile(path: string, current?: SessionManager): void {
	const target = resolve(path);
	const open = current?.getSessionFile();
	if (open && resolve(open) === target) throw new Error(`Cannot delete the current session: ${target}`);
	unlinkSync(target);
}
