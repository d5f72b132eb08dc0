import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTask, TaskFormatError } from "../../src/eval/task/harbor-task.js";
import { selectTasks } from "../../src/eval/task/select-tasks.js";
import { tempDir, writeTask } from "./eval-fixtures.js";

describe("Harbor task loading", () => {
	it("reads the task.toml fields tau uses and warns about unknown ones instead of failing", () => {
		const suite = tempDir("toml");
		const dir = writeTask(suite, "t", { test: "exit 0", solve: "true" });
		writeFileSync(
			join(dir, "task.toml"),
			[
				'version = "1.0"',
				"[metadata]",
				'difficulty = "hard"',
				"[agent]",
				"timeout_sec = 90.0",
				"[verifier]",
				"timeout_sec = 30",
				'env = { MODE = "strict" }',
				"[environment]",
				'docker_image = "ghcr.io/example/task:1"',
				"gpus = 1",
				"[solution]",
				'env = { A = "b" }',
			].join("\n"),
		);
		const task = loadTask(dir);
		expect(task.config).toEqual({
			agentTimeoutSec: 90,
			verifierTimeoutSec: 30,
			verifierEnv: { MODE: "strict" },
			dockerImage: "ghcr.io/example/task:1",
			metadata: { difficulty: "hard" },
		});
		expect(task.warnings).toEqual([
			'task.toml: unknown field "environment.gpus" ignored',
			'task.toml: unknown section "solution" ignored',
		]);
	});

	it("names every format problem of a task", () => {
		const suite = tempDir("broken");
		const dir = writeTask(suite, "broken", { test: "exit 0", solve: "true" });
		writeFileSync(join(dir, "instruction.md"), "  \n");
		writeFileSync(join(dir, "task.toml"), "[agent]\ntimeout_sec = -3\n");
		rmSync(join(dir, "tests", "test.sh"));
		expect(() => loadTask(dir)).toThrow(
			new TaskFormatError(
				"broken: instruction.md is empty; agent.timeout_sec must be a positive number; tests/test.sh is missing",
			),
		);
	});

	it("takes a suite as its task subdirectories and filters them by a name glob", () => {
		const suite = tempDir("select");
		for (const name of ["fix-a", "fix-b", "write-c"]) writeTask(suite, name, { test: "exit 0", solve: "true" });
		expect(selectTasks([suite], "fix-*").map((task) => task.name)).toEqual(["fix-a", "fix-b"]);
		expect(selectTasks([join(suite, "write-c"), suite]).map((task) => task.name)).toEqual([
			"write-c",
			"fix-a",
			"fix-b",
		]);
		expect(() => selectTasks([suite], "none-*")).toThrow("no task matches --filter none-*");
	});
});
