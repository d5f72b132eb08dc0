import { APP_NAME } from "../../config/app-identity.js";

/** `tau eval --help`. */
export function evalHelp(): string {
	const app = APP_NAME;
	return `Usage:
  ${app} eval run <suite-or-task...> --model <provider/id> [options]
  ${app} eval run --resume <dir>
  ${app} eval merge <dir...> --out <dir>
  ${app} eval report <dir>
  ${app} eval compare <dir-a> <dir-b>
  ${app} eval check <suite-or-task...>

Runs tasks in the Harbor format (instruction.md, task.toml, environment/, tests/test.sh, solution/)
and measures pass@k and pass^k. See docs/eval.md.

Options for run:
  -k <n>                 Trials per task (default 1)
  --model <ref>          Model to measure (provider/id; demo/offline runs without a key)
  --thinking <level>     Thinking level
  -e, --extension <src>  Extension every trial loads (repeatable)
  --skill <path>         Skill every trial loads (repeatable)
  --settings <file>      settings.json every trial starts from
  -j, --concurrency <n>  Trials running at once (default 1)
  --timeout <seconds>    Agent time limit per trial (default: the task's agent.timeout_sec, else 1800)
  -o, --out <dir>        Run directory (default eval-runs/<timestamp>)
  --filter <glob>        Only tasks whose name matches
  --backend <b>          auto (docker when the task has a Dockerfile), local or docker
  --docker-cli <cli>     Container CLI (default $TAU_EVAL_DOCKER or docker; podman works)
  --shard <i/n | n>      Run shard i of n (with n alone: index from JOB_COMPLETION_INDEX or TAU_EVAL_SHARD_INDEX, 0-based)
  --resume <dir>         Finish an interrupted run without redoing recorded trials
`;
}
