import { dirname } from "node:path";
import type { ProjectTrustPolicy } from "../settings/types.js";
import type { ProjectTrustStore } from "./trust-store.js";

/** An extension's answer to the `project_trust` event. */
export interface ExtensionTrustAnswer {
	trusted: "yes" | "no" | "undecided";
	remember?: boolean;
}

/** What the interactive prompt returned. */
export type TrustPromptChoice = "trust" | "trust-parent" | "trust-session" | "distrust" | "distrust-session" | "cancel";

export interface ProjectTrustInput {
	cwd: string;
	store: ProjectTrustStore;
	/** `--approve` (true) / `--no-approve` (false); process-only, never saved. */
	cliOverride?: boolean;
	/** Whether the project has resources that can execute code or change behaviour. */
	hasTrustRequiringResources: boolean;
	/** `defaultProjectTrust` from the user settings layer. */
	defaultProjectTrust: ProjectTrustPolicy;
	/** The `project_trust` hook: pre-trust extensions in load order; the first yes/no wins. */
	askExtensions?: () => Promise<ExtensionTrustAnswer | undefined>;
	/** The interactive prompt; absent in print, JSON and RPC modes (where "ask" means "no"). */
	prompt?: (options: { cwd: string; parent: string | undefined }) => Promise<TrustPromptChoice>;
}

/**
 * Whether a project is trusted and what decided it: a CLI flag, a saved answer, an extension, the policy or the
 * user's answer.
 */
export interface ProjectTrustDecision {
	trusted: boolean;
	source: "cli" | "implicit" | "saved" | "extension" | "policy" | "no-ui" | "prompt";
}

/** Decides whether a project is trusted, saving decisions the user (or an extension) asked to remember. */
export async function resolveProjectTrusted(input: ProjectTrustInput): Promise<ProjectTrustDecision> {
	const { cwd, store } = input;
	if (input.cliOverride !== undefined) return { trusted: input.cliOverride, source: "cli" };
	const saved = store.get(cwd);
	if (!input.hasTrustRequiringResources) {
		return saved ? { trusted: saved.decision, source: "saved" } : { trusted: true, source: "implicit" };
	}
	const answer = await input.askExtensions?.();
	if (answer && answer.trusted !== "undecided") {
		const trusted = answer.trusted === "yes";
		if (answer.remember) store.trySetMany([{ path: cwd, decision: trusted }]);
		return { trusted, source: "extension" };
	}
	if (saved) return { trusted: saved.decision, source: "saved" };
	if (input.defaultProjectTrust === "always") return { trusted: true, source: "policy" };
	if (input.defaultProjectTrust === "never") return { trusted: false, source: "policy" };
	if (!input.prompt) return { trusted: false, source: "no-ui" };
	const canonical = store.canonical(cwd);
	const parentDir = dirname(canonical);
	const parent = parentDir === canonical ? undefined : parentDir;
	const choice = await input.prompt({ cwd: canonical, parent });
	return { trusted: applyTrustChoice(store, canonical, choice).trusted, source: "prompt" };
}

/**
 * The trust prompt's options in the order of docs/design/resources.md#trust-decision-order; the parent option is left out
 * at the filesystem root. Shared by the startup prompt and `/trust`.
 */
export function trustPromptOptions(parent: string | undefined): { choice: TrustPromptChoice; label: string }[] {
	return [
		{ choice: "trust", label: "Trust" },
		...(parent ? [{ choice: "trust-parent" as const, label: `Trust parent folder (${parent})` }] : []),
		{ choice: "trust-session", label: "Trust (this session only)" },
		{ choice: "distrust", label: "Do not trust" },
		{ choice: "distrust-session", label: "Do not trust (this session only)" },
	];
}

/**
 * Saves what a prompt choice asks to remember for `cwd` (canonical). `trusted` is the decision for
 * this process; `saved` is false when writing trust.json failed (the store keeps the reason).
 */
export function applyTrustChoice(
	store: ProjectTrustStore,
	cwd: string,
	choice: TrustPromptChoice,
): { trusted: boolean; saved: boolean } {
	switch (choice) {
		case "trust":
			return { trusted: true, saved: store.trySetMany([{ path: cwd, decision: true }]) };
		case "trust-parent":
			return {
				trusted: true,
				saved: store.trySetMany([
					{ path: dirname(cwd), decision: true },
					{ path: cwd, decision: null },
				]),
			};
		case "distrust":
			return { trusted: false, saved: store.trySetMany([{ path: cwd, decision: false }]) };
		case "trust-session":
			return { trusted: true, saved: true };
		default:
			return { trusted: false, saved: true };
	}
}
