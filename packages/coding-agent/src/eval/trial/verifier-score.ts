import type { VerifierOutcome } from "../backend/backend.js";
import type { TrialOutcome } from "../results/trial-record.js";

/** A reward of at least 1 is a pass (Harbor's convention: 1 = solved). */
export const PASS_REWARD = 1;

/**
 * Turns what the verifier did into a score: its reward file wins; without one, exit 0 passes and
 * exit 1 fails; any other ending (a crash, a signal, a timeout) is an infrastructure error.
 */
export function scoreVerifier(outcome: VerifierOutcome): { outcome: TrialOutcome; reward: number; error?: string } {
	if (outcome.timedOut) return { outcome: "infra_error", reward: 0, error: "verifier timed out" };
	if (outcome.reward !== undefined) {
		return { outcome: outcome.reward >= PASS_REWARD ? "pass" : "fail", reward: outcome.reward };
	}
	if (outcome.exitCode === 0) return { outcome: "pass", reward: 1 };
	if (outcome.exitCode === 1) return { outcome: "fail", reward: 0 };
	const how = outcome.exitCode === null ? "was killed" : `exited with status ${outcome.exitCode}`;
	return { outcome: "infra_error", reward: 0, error: `verifier crashed: it ${how} and wrote no reward` };
}
