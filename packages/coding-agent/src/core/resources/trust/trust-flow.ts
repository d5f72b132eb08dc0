import { homedir } from "node:os";
import type { ProjectTrustPolicy } from "../../../config/settings/types.js";
import {
	type ExtensionTrustAnswer,
	type ProjectTrustDecision,
	resolveProjectTrusted,
	type TrustPromptChoice,
} from "../../../config/trust/trust-decision.js";
import type { ProjectTrustStore } from "../../../config/trust/trust-store.js";
import type { ProjectTrustContext } from "../../extensions/api/context.js";
import {
	askExtensionsForProjectTrust,
	headlessProjectTrustContext,
} from "../../extensions/runner/dispatch/project-trust.js";
import type { LoadExtensionsResult } from "../loader/extension-set.js";
import type { ReloadOptions } from "../loader/resource-loader.js";
import { hasTrustRequiringProjectResources } from "./project-resources.js";

export interface ProjectTrustFlowOptions {
	cwd: string;
	store: ProjectTrustStore;
	/** `--approve` / `--no-approve`. */
	cliOverride?: boolean;
	defaultProjectTrust: ProjectTrustPolicy;
	/**
	 * Replaces the default `project_trust` dispatch, which asks the pre-trust extensions in load
	 * order with `trustContext` and reports failed handlers through `onWarning`.
	 */
	emitProjectTrust?: (extensionsResult: LoadExtensionsResult) => Promise<ExtensionTrustAnswer | undefined>;
	/** What `project_trust` handlers receive; default: no UI, mode `print`. */
	trustContext?: ProjectTrustContext;
	/** Receives `Extension "<path>" project_trust error: <message>` warnings. */
	onWarning?: (message: string) => void;
	/** The interactive prompt; absent in print, JSON and RPC modes. */
	prompt?: (options: { cwd: string; parent: string | undefined }) => Promise<TrustPromptChoice>;
	homeDir?: string;
	/** Receives the decision and how it was reached (for notices and the per-cwd cache). */
	onDecision?: (decision: ProjectTrustDecision) => void;
}

/**
 * The `resolveProjectTrust` callback for `reload()`: checks for trust-requiring resources, then
 * applies the decision order (CLI flag, extensions, saved decision, policy, prompt) from config.
 */
export function createProjectTrustResolver(
	options: ProjectTrustFlowOptions,
): NonNullable<ReloadOptions["resolveProjectTrust"]> {
	return async ({ extensionsResult }) => {
		const decision = await resolveProjectTrusted({
			cwd: options.cwd,
			store: options.store,
			cliOverride: options.cliOverride,
			hasTrustRequiringResources: hasTrustRequiringProjectResources(options.cwd, options.homeDir ?? homedir()),
			defaultProjectTrust: options.defaultProjectTrust,
			askExtensions: () =>
				options.emitProjectTrust
					? options.emitProjectTrust(extensionsResult)
					: askPreTrustExtensions(extensionsResult, options),
			prompt: options.prompt,
		});
		options.onDecision?.(decision);
		return decision.trusted;
	};
}

async function askPreTrustExtensions(
	extensionsResult: LoadExtensionsResult,
	options: ProjectTrustFlowOptions,
): Promise<ExtensionTrustAnswer | undefined> {
	const context = options.trustContext ?? headlessProjectTrustContext(options.cwd);
	const { answer, warnings } = await askExtensionsForProjectTrust(extensionsResult.extensions, context);
	for (const warning of warnings) options.onWarning?.(warning);
	return answer;
}

/**
 * Trust decisions of this process keyed by cwd: replacing the session within an already decided
 * cwd (`/new`, `/fork`, `/resume` of the same project) reuses the decision; a new cwd asks again.
 */
export class ProjectTrustCache {
	private readonly decisions = new Map<string, boolean>();
	/** Cwds trusted only because they had nothing to decide about (no flag, nothing saved). */
	private readonly implicit = new Set<string>();

	get(cwd: string): boolean | undefined {
		return this.decisions.get(cwd);
	}

	set(cwd: string, trusted: boolean): void {
		this.decisions.set(cwd, trusted);
	}

	/**
	 * Prepares a reload for a cwd: a cached decision, a CLI flag, or a project without
	 * trust-requiring resources (saved decision, else trusted) set the settings' trust flag
	 * directly; otherwise the returned options run the full two-pass flow and cache its answer.
	 */
	prepareReload(
		flow: ProjectTrustFlowOptions,
		settings: { setProjectTrusted(trusted: boolean): void },
	): ReloadOptions {
		let decided = this.decisions.get(flow.cwd) ?? flow.cliOverride;
		if (decided === undefined && !hasTrustRequiringProjectResources(flow.cwd, flow.homeDir ?? homedir())) {
			const saved = flow.store.get(flow.cwd)?.decision;
			decided = saved ?? true;
			if (saved === undefined) this.implicit.add(flow.cwd);
		}
		if (decided !== undefined) {
			this.decisions.set(flow.cwd, decided);
			settings.setProjectTrusted(decided);
			return {};
		}
		return {
			resolveProjectTrust: createProjectTrustResolver({
				...flow,
				onDecision: (decision) => {
					this.decisions.set(flow.cwd, decision.trusted);
					flow.onDecision?.(decision);
				},
			}),
		};
	}

	/**
	 * After `/reload` in interactive mode: a cwd that was trusted implicitly and now has
	 * trust-requiring resources gets `true` saved (once), so the next start does not ask about
	 * resources the user has been running with. Returns whether it saved, so the caller can say so.
	 */
	saveImplicitTrustAfterReload(flow: Pick<ProjectTrustFlowOptions, "cwd" | "store" | "homeDir">): boolean {
		if (!this.implicit.has(flow.cwd)) return false;
		if (!hasTrustRequiringProjectResources(flow.cwd, flow.homeDir ?? homedir())) return false;
		this.implicit.delete(flow.cwd);
		if (flow.store.get(flow.cwd)) return false;
		return flow.store.trySetMany([{ path: flow.cwd, decision: true }]);
	}
}
