import type { AnyToolDefinition } from "../../core/extensions/index.js";
import type { HarborTask } from "../task/harbor-task.js";

/** What the verifier reported: a reward from `reward.txt`/`reward.json`, else its exit status decides. */
export interface VerifierOutcome {
	reward?: number;
	exitCode: number | null;
	timedOut: boolean;
	/** The verifier's combined output, kept in the trial's logs. */
	output: string;
}

/** One trial's environment: the agent works in `workdir`; the ground truth arrives only in `verify`. */
export interface TrialSandbox {
	/** The agent's working directory as its tools see it (the trial workspace, or the container's workdir). */
	readonly workdir: string;
	/** Tools replacing the built-ins (docker runs them inside the container); absent: host tools in `workdir`. */
	readonly tools?: AnyToolDefinition[];
	/** Runs `solution/solve.sh` in the environment (used by `tau eval check`). */
	runSolution(timeoutSec: number, signal?: AbortSignal): Promise<{ exitCode: number | null; output: string }>;
	/** Copies `tests/` in, runs `tests/test.sh`, reads the reward, removes `tests/` again. */
	verify(timeoutSec: number, signal?: AbortSignal): Promise<VerifierOutcome>;
	dispose(): Promise<void>;
}

/** Where a trial keeps its files on the host: the logs folder is `/logs` in a container. */
export interface TrialPaths {
	/** `<out>/trials/<task>/<index>`. */
	dir: string;
	logsDir: string;
}

/**
 * Creates sandboxes for trials. Building one may fail (an image that does not build): that throws
 * `InfrastructureError`, which counts apart from task failures.
 */
export interface EvalBackend {
	readonly name: string;
	open(task: HarborTask, paths: TrialPaths, signal?: AbortSignal): Promise<TrialSandbox>;
}

export class InfrastructureError extends Error {}

export const DEFAULT_VERIFIER_TIMEOUT_SEC = 600;
export const DEFAULT_AGENT_TIMEOUT_SEC = 1800;
