import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { CONFIG_DIR_NAME } from "../../../config/app-identity.js";
import { expandTilde, getAgentDir } from "../../../config/paths.js";
import { collectExtensionEntries } from "../../resources/scan/directory-scan.js";
import type { EventBus } from "../api/extension-api.js";
import { type LoadExtensionsResult, loadExtensions } from "./load-extensions.js";

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/**
 * Loads the project's extensions (`<cwd>/.tau/extensions`), then the user's (`<agentDir>/extensions`),
 * then `configuredPaths` (files, or directories whose entry points are found as in discovery); a
 * path is loaded once even when several sources name it (docs/extensions.md).
 */
export function discoverAndLoadExtensions(
	configuredPaths: string[],
	cwd: string,
	agentDir: string = getAgentDir(),
	eventBus?: EventBus,
): Promise<LoadExtensionsResult> {
	const root = resolve(cwd);
	const paths: string[] = [];
	const add = (found: readonly string[]) => {
		for (const path of found) if (!paths.includes(path)) paths.push(path);
	};
	for (const dir of [join(root, CONFIG_DIR_NAME, "extensions"), join(resolve(agentDir), "extensions")]) {
		if (existsSync(dir)) add(collectExtensionEntries(dir));
	}
	for (const configured of configuredPaths) {
		const path = resolve(root, expandTilde(configured));
		add(isDirectory(path) ? collectExtensionEntries(path) : [path]);
	}
	return loadExtensions(paths, { cwd: root, ...(eventBus ? { eventBus } : {}) });
}
