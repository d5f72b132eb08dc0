import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { stripBom } from "../../../config/fs/json-text.js";
import { getProjectConfigDir } from "../../../config/paths.js";
import { errorMessage } from "../../errors.js";
import type { ResourceDiagnostic } from "../types.js";

/** A prompt text and, when it came from a file, that file. */
export interface PromptText {
	text: string;
	path?: string;
}

/**
 * `SYSTEM.md` / `APPEND_SYSTEM.md`: the trusted project's file wins over the user's; the two are
 * never concatenated.
 */
export function discoverPromptFile(
	name: "SYSTEM.md" | "APPEND_SYSTEM.md",
	options: { cwd: string; agentDir: string; projectTrusted: boolean },
): string | undefined {
	const candidates = [join(options.agentDir, name)];
	if (options.projectTrusted) candidates.unshift(join(getProjectConfigDir(options.cwd), name));
	return candidates.find((path) => existsSync(path));
}

/**
 * A `--system-prompt`-style value: the content of the file it names when such a file exists,
 * otherwise the text itself. An existing file that cannot be read is an error and yields nothing
 * (the path is never sent to the model as if it were the prompt).
 */
export function resolvePromptSource(
	value: string,
	cwd: string,
	diagnostics: ResourceDiagnostic[],
): PromptText | undefined {
	const path = resolve(cwd, value);
	let isFile = false;
	try {
		isFile = value.trim() !== "" && !value.includes("\n") && statSync(path).isFile();
	} catch {
		isFile = false;
	}
	if (!isFile) return { text: value };
	try {
		return { text: stripBom(readFileSync(path, "utf8")), path };
	} catch (error) {
		diagnostics.push({ type: "error", message: `Could not read prompt file ${path}: ${errorMessage(error)}`, path });
		return undefined;
	}
}
