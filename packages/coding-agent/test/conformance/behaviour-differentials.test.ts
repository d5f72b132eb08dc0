import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../e2e/harness.js";
import { oracleMissing } from "./pi-oracle.js";
import { generateSettings, REJECTED_SETTINGS } from "./probes/behaviour-probes.mjs";

/**
 * Public coding-agent functions whose behaviour Pi defines, fed the same generated inputs in tau and
 * in pi 1.6. Both run in a Node 22 child (pi needs it; the same Node keeps engine messages such as
 * JSON parse errors identical) through one probe file, so only the package differs. Deliberate
 * differences are listed in docs/pi-compatibility.md and left out of the comparison here.
 */

const NODE_22 = process.env.TAU_PI_NODE ?? "";
const ENTRIES = {
	tau: join(REPO_ROOT, "packages/coding-agent/dist/index.js"),
	pi: join(dirname(process.env.TAU_PI_CLI ?? ""), "..", "index.js"),
};
const RUNNER = join(import.meta.dirname, "probes/probe-runner.mjs");

interface Call {
	probe: string;
	input: unknown;
	/** A settings layer whose getters must throw. */
	rejected?: boolean;
}

/** The answers of one program to every call, from a fresh child process with a temp HOME. */
function ask(program: keyof typeof ENTRIES, calls: readonly Call[]): Promise<unknown[]> {
	const home = mkdtempSync(join(tmpdir(), "tau-differential-"));
	const child = spawn(NODE_22, [RUNNER], {
		env: { PATH: process.env.PATH, HOME: home, TAU_OFFLINE: "1", PI_OFFLINE: "1" },
		stdio: ["pipe", "pipe", "pipe"],
	});
	child.stdin.end(JSON.stringify({ entry: ENTRIES[program], calls }));
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
	child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
	return new Promise((resolve, reject) => {
		child.on("error", reject);
		child.on("close", (code) => {
			if (code === 0) resolve(JSON.parse(stdout) as unknown[]);
			else reject(new Error(`${program} probes exited ${code}: ${stderr}`));
		});
	});
}

const seeds = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

/** Every generated input, by probe; all of them run in one child per program. */
const CALLS: Call[] = [
	...generateSettings(7, 80).map((input) => ({ probe: "settingsGetters", input })),
	...REJECTED_SETTINGS.map((input) => ({ probe: "settingsGetters", input, rejected: true })),
	...["{ not json", '{"theme": 5}', "{}"].map((input) => ({ probe: "brokenSettingsFile", input })),
	...seeds(20).map((input) => ({ probe: "sessionLabels", input })),
	...seeds(30).map((input) => ({ probe: "grepTool", input })),
	...seeds(30).map((input) => ({ probe: "editTool", input })),
	...seeds(8).map((input) => ({ probe: "resourceLoading", input })),
	...seeds(8).map((input) => ({ probe: "resourceLoader", input })),
	...seeds(6).map((input) => ({ probe: "longSessionReopen", input })),
];

interface Answered {
	input: unknown;
	tau: unknown;
	pi: unknown;
}

let answered: Promise<(Answered & Call)[]> | undefined;

/** The answers to the calls of `probe` (both programs run once, on first use). */
async function compare(probe: string, filter: (call: Call) => boolean = () => true): Promise<Answered[]> {
	answered ??= Promise.all([ask("tau", CALLS), ask("pi", CALLS)]).then(([tau, pi]) =>
		CALLS.map((call, index) => ({ ...call, tau: tau[index], pi: pi[index] })),
	);
	return (await answered).filter((call) => call.probe === probe && filter(call));
}

/** Getters only tau has; Pi has nothing to compare them with. */
const TAU_ONLY_GETTERS = ["getCodemodeInlineBudget", "getCodemodeMode", "getHttpProxy", "getSelfUpdateCommand"];

function withoutTauOnly(answers: unknown): unknown {
	const copy = { ...(answers as Record<string, unknown>) };
	for (const name of TAU_ONLY_GETTERS) delete copy[name];
	return copy;
}

describe.skipIf(oracleMissing !== undefined)(
	`coding-agent functions answer as pi 1.6 does for generated inputs (${oracleMissing ?? "pi reference present"})`,
	{ timeout: 180_000 },
	() => {
		it("every settings getter, for unset and valid settings (80 generated layers)", async () => {
			for (const { input, tau, pi } of await compare("settingsGetters", (call) => !call.rejected)) {
				expect({ input, answers: withoutTauOnly(tau) }).toEqual({ input, answers: pi });
			}
		});

		it("settings getters reject bad timeouts and token counts with pi's error texts", async () => {
			const compared = await compare("settingsGetters", (call) => call.rejected === true);
			for (const { input, tau, pi } of compared) {
				expect({ input, answers: withoutTauOnly(tau) }).toEqual({ input, answers: pi });
			}
			const answers = compared.map(({ tau }) => tau as Record<string, { threw?: string }>);
			expect(answers[0]?.getHttpIdleTimeoutMs).toEqual({ threw: "Invalid httpIdleTimeoutMs setting: soon" });
		});

		it("a settings file that is not JSON reports the parse error and falls back to the defaults", async () => {
			// tau names the file, line and column where pi gives a position (docs/pi-compatibility.md).
			const located = (answer: unknown) => withJsonErrorLocation(answer, "<root>/agent/settings.json");
			for (const { input, tau, pi } of await compare("brokenSettingsFile")) {
				expect({ input, tau }).toEqual({ input, tau: located(pi) });
			}
		});

		it("session labels: an empty label clears and is written as an empty string (20 generated runs)", async () => {
			const compared = await compare("sessionLabels");
			for (const { input, tau, pi } of compared) expect({ input, tau }).toEqual({ input, tau: pi });
			const entries = compared.flatMap(
				({ tau }) => (tau as { labelEntries: [number, string | null][] }).labelEntries,
			);
			expect(entries.some(([, label]) => label === "")).toBe(true);
		});

		it("a long session with bodies cut short, opened again: tau reading bodies on first use gives pi's tree and context (6 generated sessions)", async () => {
			const compared = await compare("longSessionReopen");
			for (const { input, tau, pi } of compared) expect({ input, tau }).toEqual({ input, tau: pi });
			// The cut bodies were dropped on both sides: each file lost two entries.
			for (const { tau } of compared) {
				const { written, entries } = tau as { written: number; entries: number };
				expect(entries).toBe(written - 2);
			}
		});

		it("grep: the last match's trailing context after the match limit (30 generated searches)", async () => {
			const compared = await compare("grepTool");
			for (const { input, tau, pi } of compared) expect({ input, tau }).toEqual({ input, tau: pi });
			const texts = compared.map(({ tau }) => JSON.stringify(tau));
			// A match inside that trailing context is printed as a context line.
			expect(texts.some((text) => /file\.txt-\d+- match/.test(text))).toBe(true);
		});

		it("edit: the diff details, elision lines included, and the file written (30 generated edits)", async () => {
			const compared = await compare("editTool");
			// The result text is tau's own wording ("1 block", not "1 block(s)"); details and file must match.
			const comparable = (answer: unknown) => {
				const { edits, result, after } = answer as { edits: unknown; result: { details?: unknown }; after: string };
				return { edits, details: result.details, after };
			};
			for (const { input, tau, pi } of compared) {
				expect({ input, tau: comparable(tau) }).toEqual({ input, tau: comparable(pi) });
			}
			const diffs = compared.map(({ tau }) => JSON.stringify(comparable(tau)));
			expect(diffs.some((diff) => diff.includes(" ...\\n"))).toBe(true);
		});

		it("loadSkills and loadProjectContextFiles return pi's shapes (8 generated layouts)", async () => {
			for (const { input, tau, pi } of await compare("resourceLoading")) {
				expect({ input, tau }).toEqual({ input, tau: pi });
			}
		});

		it("a resource loader's prompts, themes, skills and context files (8 generated layouts)", async () => {
			// tau reports a theme that does not parse without the error class name (docs/pi-compatibility.md).
			const withoutClassName = (answer: unknown) =>
				JSON.parse(JSON.stringify(answer).replaceAll("SyntaxError: ", ""));
			for (const { input, tau, pi } of await compare("resourceLoader")) {
				expect({ input, tau }).toEqual({ input, tau: withJsonErrorLocation(withoutClassName(pi)) });
			}
		});
	},
);

/**
 * Pi's JSON parse messages in the form tau writes them: pi ends a message with "<reason> in JSON at
 * position N (line L column C)", after "<path>: " or (for settings) with no path, which `path` supplies;
 * tau writes "<path>:L:C: <reason>".
 */
function withJsonErrorLocation(answer: unknown, path = ""): unknown {
	const pattern = /^(.*?)([^:\s][^:]*) in JSON at position \d+ \(line (\d+) column (\d+)\)$/;
	const rewrite = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.map(rewrite);
		if (value && typeof value === "object") {
			return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, rewrite(inner)]));
		}
		const match = typeof value === "string" ? pattern.exec(value) : null;
		if (!match) return value;
		const [, head = "", reason, line, column] = match;
		const located = head.endsWith(": ") ? head.slice(0, -2) : `${head}${path}`;
		return `${located}:${line}:${column}: ${reason}`;
	};
	return rewrite(answer);
}
