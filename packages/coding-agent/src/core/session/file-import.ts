import { chmodSync, constants, copyFileSync, existsSync } from "node:fs";
import { basename, join } from "node:path";
import { samePath } from "./location.js";
import { makeSessionDir, nodeSessionFileSystem, SESSION_FILE_MODE, type SessionFileSystem } from "./storage.js";

/** Copies a session file into `dir` (`name-1.jsonl` on collision, never overwriting); returns the copy's path. */
export function copySessionFileInto(
	source: string,
	dir: string,
	fs: SessionFileSystem = nodeSessionFileSystem,
): string {
	const name = basename(source, ".jsonl");
	let target = join(dir, `${name}.jsonl`);
	if (samePath(source, target)) return target;
	makeSessionDir(dir, fs);
	for (let n = 1; existsSync(target); n++) target = join(dir, `${name}-${n}.jsonl`);
	copyFileSync(source, target, constants.COPYFILE_EXCL);
	chmodSync(target, SESSION_FILE_MODE);
	return target;
}
