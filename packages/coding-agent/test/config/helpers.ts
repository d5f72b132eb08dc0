import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

const created: string[] = [];

afterEach(() => {
	while (created.length > 0) rmSync(created.pop()!, { recursive: true, force: true });
});

/** A fresh temp directory with `agent/` and `project/` inside, removed after the test. */
export function tempDirs(): { root: string; agentDir: string; cwd: string } {
	const root = mkdtempSync(join(tmpdir(), "tau-config-"));
	created.push(root);
	const agentDir = join(root, "agent");
	const cwd = join(root, "project");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	return { root, agentDir, cwd };
}

export function writeText(path: string, text: string): void {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, text);
}

export function writeJson(path: string, value: unknown): void {
	writeText(path, JSON.stringify(value, null, 2));
}

export function readJson(path: string): any {
	return JSON.parse(readFileSync(path, "utf8"));
}
