import type { HarborTask } from "../task/harbor-task.js";
import type { EvalBackend } from "./backend.js";
import { LocalBackend } from "./local-backend.js";

/** `--backend`: `auto` runs a task with a Dockerfile or image in docker and any other task locally. */
export type BackendChoice = "auto" | "local" | "docker";

export const BACKEND_CHOICES: readonly BackendChoice[] = ["auto", "local", "docker"];

/** Hands each task its backend, creating each kind once per run. */
export class BackendChooser {
	private local: EvalBackend | undefined;
	private docker: Promise<EvalBackend> | undefined;

	constructor(
		private readonly choice: BackendChoice,
		/** The container CLI (`docker`, `podman`, a path). */
		private readonly dockerCli: string,
	) {}

	async forTask(task: HarborTask): Promise<EvalBackend> {
		const wantsDocker =
			this.choice === "docker" ||
			(this.choice === "auto" && (task.hasDockerfile || task.config.dockerImage !== undefined));
		if (!wantsDocker) {
			this.local ??= new LocalBackend();
			return this.local;
		}
		// The docker backend is loaded only by runs that use it.
		this.docker ??= import("./docker-backend.js").then(({ DockerBackend }) => new DockerBackend(this.dockerCli));
		return this.docker;
	}
}
