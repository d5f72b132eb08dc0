import { resolve } from "node:path";
import type { MainIO } from "../../cli/main-io.js";
import { getAgentDir } from "../../config/paths.js";
import { createDefaultModelRuntime } from "../../sdk/model-runtime-factory.js";
import { BackendChooser } from "../backend/choose-backend.js";
import { createProgressReporter } from "../progress/progress-display.js";
import { textTable } from "../report/format.js";
import { summaryRows } from "../report/summary-table.js";
import { type RunConfig, readRunConfig, writeRunConfig } from "../results/run-directory.js";
import { runEval } from "../run/run-eval.js";
import { parseShard } from "../shard/shard.js";
import { selectTasks } from "../task/select-tasks.js";
import { resolveSetupModel } from "../trial/agent-setup.js";
import type { EvalArgs } from "./eval-args.js";

/** The container CLI: `--docker-cli`, else `TAU_EVAL_DOCKER`, else `docker`. */
export function dockerCliOf(args: EvalArgs): string {
	return args.dockerCli ?? (process.env.TAU_EVAL_DOCKER || "docker");
}

function defaultOutDir(): string {
	return resolve("eval-runs", new Date().toISOString().replace(/[:.]/g, "-"));
}

/** A new run's `run.json` from the command line; paths are resolved against the current directory. */
function newRunConfig(args: EvalArgs): RunConfig {
	if (args.positionals.length === 0) throw new Error("tau eval run needs at least one suite or task directory");
	if (!args.model) throw new Error("tau eval run needs --model (demo/offline runs offline without a key)");
	const config: RunConfig = {
		paths: args.positionals.map((path) => resolve(path)),
		k: args.k ?? 1,
		backend: args.backend ?? "auto",
		concurrency: args.concurrency ?? 1,
		setup: {
			model: args.model,
			extensions: args.extensions.map((source) =>
				source.startsWith(".") || source.startsWith("/") ? resolve(source) : source,
			),
			skills: args.skills.map((path) => resolve(path)),
		},
	};
	if (args.filter) config.filter = args.filter;
	if (args.thinking) config.setup.thinking = args.thinking;
	if (args.settings) config.setup.settingsFile = resolve(args.settings);
	if (args.timeoutSec) config.setup.timeoutSec = args.timeoutSec;
	if (args.shard) config.shard = parseShard(args.shard);
	return config;
}

/**
 * `tau eval run`: writes `run.json`, runs the trials with live progress, and prints the summary table.
 * Ctrl+C (SIGINT/SIGTERM) aborts the running trials, keeps what was recorded and exits 130.
 */
export async function runEvalRun(args: EvalArgs, io: MainIO): Promise<number> {
	let outDir: string;
	let config: RunConfig;
	if (args.resume) {
		outDir = resolve(args.resume);
		config = readRunConfig(outDir);
		if (args.concurrency) config.concurrency = args.concurrency;
	} else {
		config = newRunConfig(args);
		outDir = resolve(args.out ?? defaultOutDir());
		// Fail before any trial runs: unknown tasks, an unknown model.
		selectTasks(config.paths, config.filter);
		await resolveSetupModel(await createDefaultModelRuntime(getAgentDir()), config.setup.model);
		writeRunConfig(outDir, config);
	}
	const controller = new AbortController();
	const stop = () => controller.abort();
	process.on("SIGINT", stop);
	process.on("SIGTERM", stop);
	try {
		const result = await runEval({
			config,
			outDir,
			userAgentDir: getAgentDir(),
			backends: new BackendChooser(config.backend as "auto", dockerCliOf(args)),
			progress: createProgressReporter(io.stderr, {
				live: process.stderr.isTTY === true,
				concurrency: config.concurrency,
			}),
			signal: controller.signal,
		});
		const rows = summaryRows(result.summary);
		io.stdout(`${textTable(rows.header, rows.rows)}\n\nResults: ${outDir}\n`);
		if (result.interrupted) {
			io.stderr(`Interrupted. Finish with: tau eval run --resume ${outDir}\n`);
			return 130;
		}
		return 0;
	} finally {
		process.off("SIGINT", stop);
		process.off("SIGTERM", stop);
	}
}
