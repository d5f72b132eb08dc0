import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";

/** The `task.toml` fields tau uses (docs/eval.md lists them); other fields are kept in `metadata` or warned about. */
export interface TaskConfig {
	agentTimeoutSec?: number;
	verifierTimeoutSec?: number;
	verifierEnv: Record<string, string>;
	/** A prebuilt image the docker backend uses instead of building `environment/Dockerfile`. */
	dockerImage?: string;
	metadata: Record<string, unknown>;
}

/** A task directory in the Harbor format: `instruction.md`, `task.toml`, `environment/`, `tests/`, `solution/`. */
export interface HarborTask {
	name: string;
	dir: string;
	instruction: string;
	config: TaskConfig;
	environmentDir?: string;
	hasDockerfile: boolean;
	testsDir: string;
	solutionDir?: string;
	warnings: string[];
}

export class TaskFormatError extends Error {}

const KNOWN_SECTIONS: Record<string, readonly string[]> = {
	verifier: ["timeout_sec", "env"],
	agent: ["timeout_sec"],
	environment: ["build_timeout_sec", "docker_image", "cpus", "memory_mb", "storage_mb", "memory", "storage"],
};

function positiveNumber(value: unknown, field: string, problems: string[]): number | undefined {
	if (value === undefined) return undefined;
	if (typeof value === "number" && Number.isFinite(value) && value > 0) return value;
	problems.push(`${field} must be a positive number`);
	return undefined;
}

function section(table: Record<string, unknown>, name: string): Record<string, unknown> {
	const value = table[name];
	return value !== null && typeof value === "object" && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: {};
}

/** Reads `task.toml`; unknown sections and fields are warnings (suites written for newer Harbor still run). */
export function parseTaskConfig(text: string, problems: string[], warnings: string[]): TaskConfig {
	let table: Record<string, unknown>;
	try {
		table = parseToml(text) as Record<string, unknown>;
	} catch (error) {
		problems.push(`task.toml: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
		return { verifierEnv: {}, metadata: {} };
	}
	for (const [key, value] of Object.entries(table)) {
		if (key === "version" || key === "metadata") continue;
		const known = KNOWN_SECTIONS[key];
		if (!known) {
			warnings.push(`task.toml: unknown ${typeof value === "object" ? "section" : "field"} "${key}" ignored`);
			continue;
		}
		for (const field of Object.keys(section(table, key))) {
			if (!known.includes(field)) warnings.push(`task.toml: unknown field "${key}.${field}" ignored`);
		}
	}
	const verifier = section(table, "verifier");
	const environment = section(table, "environment");
	const verifierEnv: Record<string, string> = {};
	for (const [name, value] of Object.entries(section(verifier, "env"))) verifierEnv[name] = String(value);
	const config: TaskConfig = { verifierEnv, metadata: section(table, "metadata") };
	const agentTimeout = positiveNumber(section(table, "agent").timeout_sec, "agent.timeout_sec", problems);
	const verifierTimeout = positiveNumber(verifier.timeout_sec, "verifier.timeout_sec", problems);
	positiveNumber(environment.build_timeout_sec, "environment.build_timeout_sec", problems);
	if (agentTimeout !== undefined) config.agentTimeoutSec = agentTimeout;
	if (verifierTimeout !== undefined) config.verifierTimeoutSec = verifierTimeout;
	if (typeof environment.docker_image === "string" && environment.docker_image !== "") {
		config.dockerImage = environment.docker_image;
	}
	return config;
}

function isDirectory(path: string): boolean {
	return existsSync(path) && statSync(path).isDirectory();
}

/** Loads one task directory; throws `TaskFormatError` listing every problem found. */
export function loadTask(dir: string): HarborTask {
	const root = resolve(dir);
	const problems: string[] = [];
	const warnings: string[] = [];
	const instructionPath = join(root, "instruction.md");
	const instruction = existsSync(instructionPath) ? readFileSync(instructionPath, "utf8") : "";
	if (!existsSync(instructionPath)) problems.push("instruction.md is missing");
	else if (instruction.trim() === "") problems.push("instruction.md is empty");
	const tomlPath = join(root, "task.toml");
	const config = existsSync(tomlPath)
		? parseTaskConfig(readFileSync(tomlPath, "utf8"), problems, warnings)
		: { verifierEnv: {}, metadata: {} };
	if (!existsSync(tomlPath)) warnings.push("task.toml is missing: default timeouts apply");
	const testsDir = join(root, "tests");
	if (!existsSync(join(testsDir, "test.sh"))) problems.push("tests/test.sh is missing");
	const environmentDir = join(root, "environment");
	const solutionDir = join(root, "solution");
	if (problems.length > 0) throw new TaskFormatError(`${basename(root)}: ${problems.join("; ")}`);
	const task: HarborTask = {
		name: basename(root),
		dir: root,
		instruction,
		config,
		hasDockerfile: existsSync(join(environmentDir, "Dockerfile")),
		testsDir,
		warnings,
	};
	if (isDirectory(environmentDir)) task.environmentDir = environmentDir;
	if (isDirectory(solutionDir)) task.solutionDir = solutionDir;
	return task;
}

/** A path holding `instruction.md` is a task; any other directory is a suite of task subdirectories. */
export function taskDirectories(path: string): string[] {
	const root = resolve(path);
	if (!isDirectory(root)) throw new TaskFormatError(`${path}: not a directory`);
	if (existsSync(join(root, "instruction.md"))) return [root];
	const found = readdirSync(root)
		.sort()
		.map((name) => join(root, name))
		.filter((child) => existsSync(join(child, "instruction.md")));
	if (found.length === 0) throw new TaskFormatError(`${path}: neither a task nor a suite of tasks`);
	return found;
}
