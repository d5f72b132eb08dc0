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

/** The trust context of hosts without a UI (print, JSON, RPC startup): dialogs answer with defaults. */
export function headlessProjectTrustContext(cwd: string): ProjectTrustContext {
	return {
		cwd,
		mode: "print",
		hasUI: false,
		ui: { select: async () => undefined, confirm: async () => false, input: async () => undefined, notify: () => {} },
	};
}

/**
 * Asks the pre-trust extensions for a decision (docs/design/resources.md#trust-decision-order): the first yes/no as the
 * trust flow's answer, and every failed handler as the warning
 * `Extension "<path>" project_trust error: <message>` (it counted as undecided).
 */
export async function askExtensionsForProjectTrust(
	extensions: readonly object[],
	ctx: ProjectTrustContext,
): Promise<{ answer?: { trusted: "yes" | "no"; remember: boolean }; warnings: string[] }> {
	// Only runner extensions carry handlers; other loaders' items cannot answer.
	const runnable = extensions.filter(
		(item): item is Extension => (item as Partial<Extension>).handlers instanceof Map,
	);
	const outcome = await emitProjectTrustEvent(runnable, ctx.cwd, ctx);
	const warnings = outcome.errors.map(
		(error) => `Extension "${error.extensionPath}" project_trust error: ${error.error}`,
	);
	if (!outcome.decision) return { warnings };
	return {
		answer: { trusted: outcome.decision.trusted ? "yes" : "no", remember: outcome.decision.remember },
		warnings,
	};
}
