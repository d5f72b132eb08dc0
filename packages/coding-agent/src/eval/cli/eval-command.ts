import { resolve } from "node:path";
import type { MainIO } from "../../cli/main-io.js";
import { errorMessage } from "../../core/errors.js";
import { BackendChooser } from "../backend/choose-backend.js";
import { checkTasks } from "../check/check-task.js";
import { compareRuns, comparisonTable } from "../report/compare-runs.js";
import { textTable } from "../report/format.js";
import { summaryRows } from "../report/summary-table.js";
import { writeReport } from "../report/write-report.js";
import { mergeRuns } from "../shard/merge.js";
import { type EvalArgs, parseEvalArgs } from "./eval-args.js";
import { evalHelp } from "./eval-help.js";
import { dockerCliOf, runEvalRun } from "./eval-run-command.js";

async function dispatch(subcommand: string, args: EvalArgs, io: MainIO): Promise<number> {
	switch (subcommand) {
		case "run":
			return runEvalRun(args, io);
		case "merge": {
			if (!args.out) throw new Error("tau eval merge needs --out <dir>");
			const summary = mergeRuns(
				args.positionals.map((dir) => resolve(dir)),
				resolve(args.out),
			);
			const rows = summaryRows(summary);
			io.stdout(`${textTable(rows.header, rows.rows)}\n\nMerged into ${resolve(args.out)}\n`);
			return 0;
		}
		case "report": {
			const [dir] = args.positionals;
			if (!dir || args.positionals.length > 1) throw new Error("tau eval report needs exactly one run directory");
			const report = await writeReport(resolve(dir));
			io.stdout(`${report.table}\n\nMarkdown: ${report.markdown}\nHTML: ${report.html}\n`);
			return 0;
		}
		case "compare": {
			const [a, b] = args.positionals;
			if (!a || !b || args.positionals.length > 2)
				throw new Error("tau eval compare needs two run directories: A B");
			io.stdout(`${comparisonTable(compareRuns(resolve(a), resolve(b)))}\n`);
			return 0;
		}
		case "check": {
			if (args.positionals.length === 0)
				throw new Error("tau eval check needs at least one suite or task directory");
			const checks = await checkTasks(
				args.positionals,
				new BackendChooser(args.backend ?? "auto", dockerCliOf(args)),
			);
			for (const check of checks) {
				io.stdout(`${check.problems.length === 0 ? "OK  " : "FAIL"} ${check.name}\n`);
				for (const problem of check.problems) io.stdout(`     - ${problem}\n`);
				for (const warning of check.warnings) io.stdout(`     warning: ${warning}\n`);
			}
			return checks.every((check) => check.problems.length === 0) ? 0 : 1;
		}
		default:
			io.stderr(`Unknown eval subcommand "${subcommand}".\n${evalHelp()}`);
			return 1;
	}
}

/** `tau eval …` (docs/eval.md). Loaded only when the first argument is `eval`. */
export async function runEvalCommand(argv: readonly string[], io: MainIO): Promise<number> {
	const [subcommand, ...rest] = argv;
	const { args, errors } = parseEvalArgs(rest);
	if (subcommand === undefined || subcommand === "--help" || subcommand === "-h" || args.help) {
		io.stdout(evalHelp());
		return 0;
	}
	if (errors.length > 0) {
		for (const error of errors) io.stderr(`Error: ${error}\n`);
		return 1;
	}
	try {
		return await dispatch(subcommand, args, io);
	} catch (error) {
		io.stderr(`Error: ${errorMessage(error)}\n`);
		return 1;
	}
}
