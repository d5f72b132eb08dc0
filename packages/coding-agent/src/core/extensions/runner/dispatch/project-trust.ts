import type { ProjectTrustContext } from "../../api/context.js";
import type { ProjectTrustEventResult } from "../../api/events.js";
import { type ExtensionError, toExtensionError } from "../../runtime/errors.js";
import type { Extension } from "../../runtime/extension.js";

export interface ProjectTrustDispatchResult {
	/** The first "yes"/"no" answer, if any handler gave one. */
	decision?: { trusted: boolean; remember: boolean; extensionPath: string };
	/** Failed or malformed answers, for the host to report; they count as undecided. */
	errors: ExtensionError[];
}

/**
 * `project_trust` (runs before any session exists): the first "yes"/"no" wins; "undecided",
 * throwing handlers and missing answers fall through to the next handler.
 */
export async function emitProjectTrustEvent(
	extensions: readonly Extension[],
	cwd: string,
	ctx: ProjectTrustContext,
): Promise<ProjectTrustDispatchResult> {
	const errors: ExtensionError[] = [];
	const event = { type: "project_trust" as const, cwd };
	for (const extension of extensions) {
		for (const handler of [...(extension.handlers.get("project_trust") ?? [])]) {
			let result: ProjectTrustEventResult | undefined;
			try {
				result = (await handler(event, ctx)) as ProjectTrustEventResult | undefined;
			} catch (error) {
				errors.push(toExtensionError(extension.path, "project_trust", error));
				continue;
			}
			if (typeof result !== "object" || result === null || !["yes", "no", "undecided"].includes(result.trusted)) {
				errors.push(
					toExtensionError(
						extension.path,
						"project_trust",
						new Error("project_trust handler returned no decision"),
					),
				);
				continue;
			}
			if (result.trusted === "undecided") continue;
			return {
				decision: {
					trusted: result.trusted === "yes",
					remember: result.remember === true,
					extensionPath: extension.path,
				},
				errors,
			};
		}
	}
	return { errors };
}
