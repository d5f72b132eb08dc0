import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, watch } from "node:fs";
import { join, resolve } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import { SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { INTERRUPTED_TEXT, TOOL_INTENT_TYPE } from "../../src/sdk/index.js";
import { tempDir } from "../support/isolated-session.js";
import { createHarness, textOfMessage } from "./harness.js";

const packages = resolve(import.meta.dirname, "../../..");

/**
 * jiti aliases for every public entry (`exports`) of the tau packages, mapped from `dist/*.js` to
 * `src/*.ts`; subpaths come first so the bare package alias does not swallow them.
 */
function sourceAliases(): Record<string, string> {
	const entries: [string, string][] = [];
	for (const name of ["ai", "agent", "tui", "codemode", "mcp", "coding-agent"]) {
		const manifest = JSON.parse(readFileSync(join(packages, name, "package.json"), "utf8")) as {
			exports: Record<string, { import?: string }>;
		};
		for (const [subpath, target] of Object.entries(manifest.exports)) {
			if (!target.import?.endsWith(".js")) continue;
			const source = target.import.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts");
			entries.push([`@tau/${name}${subpath.slice(1)}`, join(packages, name, source)]);
		}
	}
	return Object.fromEntries(entries.sort(([a], [b]) => b.length - a.length));
}

/** Runs the fixture in a fresh Node process, loading tau from source through jiti. */
function startChild(cwd: string, sessionDir: string, agentDir: string) {
	const aliases = sourceAliases();
	const script = `
		import { createJiti } from "jiti";
		const jiti = createJiti(${JSON.stringify(join(packages, "coding-agent", "package.json"))}, { alias: ${JSON.stringify(aliases)} });
		const { runCrashChild } = await jiti.import(${JSON.stringify(join(import.meta.dirname, "fixtures", "crash-child.ts"))});
		await runCrashChild(${JSON.stringify(cwd)}, ${JSON.stringify(sessionDir)}, ${JSON.stringify(agentDir)});
	`;
	return spawn(process.execPath, ["--input-type=module", "-e", script], {
		cwd: join(packages, "coding-agent"),
		env: { ...process.env, HOME: tempDir("tau-home-") },
		stdio: ["ignore", "pipe", "pipe"],
	});
}

function commandStarted(cwd: string): Promise<void> {
	return new Promise((done) => {
		const watcher = watch(cwd, () => {
			if (existsSync(join(cwd, "started.txt"))) {
				watcher.close();
				done();
			}
		});
		if (existsSync(join(cwd, "started.txt"))) {
			watcher.close();
			done();
		}
	});
}

describe("tool-intent records across a real crash", () => {
	it("kill -9 while bash runs: on resume the call gets a persisted 'outcome unknown' result", async () => {
		const cwd = tempDir("tau-crash-");
		const sessionDir = tempDir("tau-crash-sessions-");
		const agentDir = join(tempDir("tau-agent-"), "agent");
		mkdirSync(agentDir, { recursive: true });
		const child = startChild(cwd, sessionDir, agentDir);
		let stderr = "";
		child.stderr.on("data", (chunk) => (stderr += chunk));
		const sessionFile = await new Promise<string>((resolveFile, reject) => {
			let out = "";
			child.stdout.on("data", (chunk) => {
				out += chunk;
				const match = /TOOL_STARTED (\S+)/.exec(out);
				if (match) resolveFile(match[1]!);
			});
			child.on("exit", (code) => reject(new Error(`child exited (${code}) before the tool ran: ${stderr}`)));
		});
		// The command itself marks that it is running (its intent was recorded before it started).
		await commandStarted(cwd);
		const exited = new Promise((done) => child.on("exit", done));
		child.kill("SIGKILL");
		await exited;

		// The crashed file holds the call and its intent, but no result.
		const lines = readFileSync(sessionFile, "utf8")
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(lines.some((entry) => entry.type === "custom" && entry.customType === TOOL_INTENT_TYPE)).toBe(true);
		expect(lines.some((entry) => entry.type === "message" && entry.message.role === "toolResult")).toBe(false);

		// The dead writer's lock is still fresh, but it names a dead process: the resume takes the lock and repairs.
		expect(existsSync(`${sessionFile}.lock`)).toBe(true);
		const sessionManager = SessionManager.open(sessionFile);
		expect(sessionManager.isReadOnly()).toBe(false);
		const h = await createHarness({ cwd, sessionManager });
		const result = h.sessionManager
			.getBranch()
			.flatMap((entry) => (entry.type === "message" && entry.message.role === "toolResult" ? [entry.message] : []));
		expect(result).toHaveLength(1);
		expect(result[0]).toMatchObject({ toolCallId: "slow-call", isError: true, details: { interrupted: true } });
		expect(textOfMessage(result[0]!)).toBe(INTERRUPTED_TEXT);
		// Persisted, and the session continues normally.
		h.faux.setResponses([fauxAssistantMessage("I will check the state first")]);
		await h.session.prompt("what happened?");
		const final = readFileSync(sessionFile, "utf8");
		expect(final).toContain(INTERRUPTED_TEXT);
		// Only standard entry types: a Pi-compatible reader opens the file (intents are plain custom entries).
		const standard = new Set([
			"session",
			"message",
			"model_change",
			"thinking_level_change",
			"custom",
			"custom_message",
		]);
		for (const line of final.trim().split("\n")) expect(standard).toContain(JSON.parse(line).type);
		// Every step waits for an event; the deadline is only a safety net. The child loads tau from source
		// through jiti, which took 90–180 s on a 2-core machine at load 15.
	}, 600_000);
});
