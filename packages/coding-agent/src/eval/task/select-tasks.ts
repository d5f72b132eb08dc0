import { modelPatternToRegExp } from "../../config/index.js";
import { type HarborTask, loadTask, TaskFormatError, taskDirectories } from "./harbor-task.js";

/** Loads every task under the given suite or task paths, keeping those whose name matches `filter`. */
export function selectTasks(paths: readonly string[], filter?: string): HarborTask[] {
	const pattern = filter ? modelPatternToRegExp(filter) : undefined;
	const tasks: HarborTask[] = [];
	const seen = new Map<string, string>();
	for (const path of paths) {
		for (const dir of taskDirectories(path)) {
			const task = loadTask(dir);
			if (pattern && !pattern.test(task.name)) continue;
			const other = seen.get(task.name);
			if (other !== undefined && other !== task.dir) {
				throw new TaskFormatError(`two tasks are named "${task.name}": ${other} and ${task.dir}`);
			}
			if (other !== undefined) continue;
			seen.set(task.name, task.dir);
			tasks.push(task);
		}
	}
	if (tasks.length === 0) throw new TaskFormatError(filter ? `no task matches --filter ${filter}` : "no tasks found");
	return tasks;
}
