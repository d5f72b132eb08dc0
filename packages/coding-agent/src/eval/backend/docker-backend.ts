import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { errorMessage } from "../../core/errors.js";
import type { HarborTask } from "../task/harbor-task.js";
import {
	type EvalBackend,
	InfrastructureError,
	type TrialPaths,
	type TrialSandbox,
	type VerifierOutcome,
} from "./backend.js";
import { containerCliOrThrow, runContainerCli } from "./container-cli.js";
import { containerTools } from "./container-tools.js";
import { readRewardFile } from "./reward-file.js";

/** A container command bounded by a timeout; the CLI process is killed when it expires or on abort. */
async function execBounded(cli: string, args: string[], timeoutSec: number, signal?: AbortSignal) {
	const controller = new AbortController();
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		controller.abort();
	}, timeoutSec * 1000);
	const onAbort = () => controller.abort();
	signal?.addEventListener("abort", onAbort, { once: true });
	try {
		const result = await runContainerCli(cli, args, { signal: controller.signal });
		return { exitCode: result.exitCode, timedOut, output: result.stdout.toString("utf8") + result.stderr };
	} catch (error) {
		if (timedOut || signal?.aborted) return { exitCode: null, timedOut, output: "" };
		throw error;
	} finally {
		clearTimeout(timer);
		signal?.removeEventListener("abort", onAbort);
	}
}

/**
 * The `docker` backend (docs/eval.md): builds the task's image once per run (or uses
 * `environment.docker_image`), starts one container per trial with the trial's logs folder mounted at
 * `/logs`, runs tau's tools inside it through `exec`, and copies `tests/` to `/tests` only for the
 * verifier. Works with podman through `--docker-cli podman`.
 */
export class DockerBackend implements EvalBackend {
	readonly name = "docker";
	private readonly images = new Map<string, Promise<string>>();
	private containers = 0;

	constructor(private readonly cli: string) {}

	private image(task: HarborTask): Promise<string> {
		if (task.config.dockerImage) return Promise.resolve(task.config.dockerImage);
		let image = this.images.get(task.dir);
		if (!image) {
			const tag = `tau-eval-${task.name.toLowerCase().replace(/[^a-z0-9_.-]/g, "-")}:${createHash("sha256").update(task.dir).digest("hex").slice(0, 12)}`;
			const context = task.environmentDir ?? join(task.dir, "environment");
			image = containerCliOrThrow(this.cli, ["build", "-q", "-t", tag, "-f", join(context, "Dockerfile"), context])
				.then(() => tag)
				.catch((error: unknown) => {
					throw new InfrastructureError(`image failed to build: ${errorMessage(error)}`);
				});
			this.images.set(task.dir, image);
		}
		return image;
	}

	async open(task: HarborTask, paths: TrialPaths): Promise<TrialSandbox> {
		const image = await this.image(task);
		mkdirSync(join(paths.logsDir, "agent"), { recursive: true });
		mkdirSync(join(paths.logsDir, "verifier"), { recursive: true });
		const name = `tau-eval-${process.pid}-${++this.containers}-${Date.now().toString(36)}`;
		let container: string;
		try {
			const id = await containerCliOrThrow(this.cli, [
				"run",
				"-d",
				"--name",
				name,
				"-v",
				`${paths.logsDir}:/logs`,
				"--entrypoint",
				"sh",
				image,
				"-c",
				"sleep infinity",
			]);
			container = id.toString("utf8").trim() || name;
		} catch (error) {
			throw new InfrastructureError(`container failed to start: ${errorMessage(error)}`);
		}
		const cli = this.cli;
		const workdir = (await containerCliOrThrow(cli, ["exec", container, "pwd"])).toString("utf8").trim() || "/";
		const env = Object.entries(task.config.verifierEnv).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
		return {
			workdir,
			tools: containerTools(cli, container, workdir),
			runSolution: async (timeoutSec, signal) => {
				if (!task.solutionDir) return { exitCode: null, output: "solution/ is missing" };
				await containerCliOrThrow(cli, ["cp", task.solutionDir, `${container}:/solution`]);
				const args = ["exec", "-w", workdir, container, "bash", "/solution/solve.sh"];
				const result = await execBounded(cli, args, timeoutSec, signal);
				return { exitCode: result.exitCode, output: result.output };
			},
			verify: async (timeoutSec, signal): Promise<VerifierOutcome> => {
				await containerCliOrThrow(cli, ["cp", task.testsDir, `${container}:/tests`]);
				const args = [
					"exec",
					"-w",
					workdir,
					...env,
					"-e",
					"LOGS_DIR=/logs",
					"-e",
					"TESTS_DIR=/tests",
					container,
					"bash",
					"/tests/test.sh",
				];
				const result = await execBounded(cli, args, timeoutSec, signal);
				const reward = readRewardFile(paths.logsDir);
				return { ...result, ...(reward !== undefined ? { reward } : {}) };
			},
			dispose: async () => {
				await runContainerCli(cli, ["rm", "-f", container]);
			},
		};
	}
}
