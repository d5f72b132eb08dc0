import { readFileSync } from "node:fs";
import { join } from "node:path";
import { APP_NAME } from "../../../config/app-identity.js";
import type { ResourceDiagnostic, SourceInfo } from "../types.js";

/** Packages the host provides to extensions (tau's and pi's names); bundling them breaks sharing. */
const HOST_PACKAGE_NAMES = [
	"@tau/ai",
	"@tau/agent",
	"@tau/coding-agent",
	"@tau/tui",
	"typebox",
	"@earendil-works/pi-ai",
	"@earendil-works/pi-agent-core",
	"@earendil-works/pi-coding-agent",
	"@earendil-works/pi-tui",
	"@mariozechner/pi-ai",
	"@mariozechner/pi-agent-core",
	"@mariozechner/pi-coding-agent",
	"@mariozechner/pi-tui",
	"@sinclair/typebox",
];

/**
 * One warning per package whose loaded extensions come with host packages under `dependencies`:
 * an installed copy bypasses the loader's module mapping and duplicates runtime modules.
 */
export function hostDependencyWarnings(sources: readonly (SourceInfo | undefined)[]): ResourceDiagnostic[] {
	const warnings: ResourceDiagnostic[] = [];
	const seen = new Set<string>();
	for (const source of sources) {
		const root = source?.origin === "package" ? source.packageRoot : undefined;
		if (!source || !root || seen.has(root)) continue;
		seen.add(root);
		let dependencies: unknown;
		try {
			dependencies = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).dependencies;
		} catch {
			continue;
		}
		if (typeof dependencies !== "object" || dependencies === null) continue;
		const misused = HOST_PACKAGE_NAMES.filter((name) => Object.hasOwn(dependencies as object, name));
		if (misused.length === 0) continue;
		warnings.push({
			type: "warning",
			message: `Extension package "${source.source}" lists ${misused.join(", ")} under "dependencies". Host packages must be "peerDependencies" with version "*": an installed copy bypasses ${APP_NAME}'s module mapping and duplicates runtime modules.`,
			path: join(root, "package.json"),
		});
	}
	return warnings;
}
