import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const tuiEntry = path.resolve(here, "../src/index.ts");
const require = createRequire(import.meta.url);

function findJiti(): string | undefined {
	try {
		return require.resolve("jiti").replace(/jiti\.cjs$/, "jiti.mjs");
	} catch {
		return undefined;
	}
}

const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;
const jiti = findJiti();
const skipReason = !hasScript
	? "util-linux `script` (pseudo-terminal) is not installed"
	: !jiti
		? "jiti (used to load the TypeScript sources in a child process) is not installed"
		: undefined;

const CHILD_TIMEOUT_MS = 60_000;

/** Runs `body` in a child node process attached to a real pseudo-terminal; returns what it wrote. */
function runUnderPty(body: string): { output: string; status: number | null } {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tau-tui-exit-"));
	const script = path.join(dir, "child.mjs");
	fs.writeFileSync(
		script,
		`import { createJiti } from ${JSON.stringify(jiti)};
const tui = await createJiti(import.meta.url).import(${JSON.stringify(tuiEntry)});
${body}
`,
	);
	const result = spawnSync(
		"script",
		["-q", "-e", "-c", `${JSON.stringify(process.execPath)} ${script}`, "/dev/null"],
		{
			encoding: "utf8",
			env: { PATH: process.env.PATH ?? "", HOME: dir, TERM: "xterm-256color", TAU_PROGRAM_STATUS: "0" },
			// Generous: loading the sources through jiti is slow on a loaded machine; only a hang should hit this.
			timeout: CHILD_TIMEOUT_MS,
		},
	);
	return { output: result.stdout, status: result.status };
}

const startApp = (renderer: string) => `
const app = new tui.${renderer}(new tui.ProcessTerminal());
app.addChild({ render: () => ["hello from child"], invalidate() {} });
app.start();
app.renderNow();
`;

describe.skipIf(skipReason !== undefined)(
	`exit restore under a pseudo-terminal${skipReason ? ` (skipped: ${skipReason})` : ""}`,
	{ timeout: CHILD_TIMEOUT_MS + 30_000 },
	() => {
		it("process.exit without stop() restores bracketed paste, Kitty flags and the cursor", () => {
			const { output } = runUnderPty(`${startApp("TuiMainScreen")}\nprocess.exit(0);`);
			const frame = output.indexOf("hello from child");
			expect(frame).toBeGreaterThanOrEqual(0);
			const after = output.slice(frame);
			expect(after).toContain("\x1b[?25h");
			expect(after).toContain("\x1b[?2004l");
			expect(after).toContain("\x1b[<u");
		});

		it("the alternate screen also disables the mouse, re-enables autowrap and leaves the alt screen", () => {
			const { output } = runUnderPty(`${startApp("TuiAltScreen")}\nprocess.exit(0);`);
			const frame = output.indexOf("hello from child");
			expect(frame).toBeGreaterThanOrEqual(0);
			const after = output.slice(frame);
			expect(after).toContain("\x1b[?2026l\x1b[?1006l\x1b[?1004l\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?7h");
			expect(after).toContain("\x1b[?2004l");
			expect(after).toContain("\x1b[<u");
			expect(after.indexOf("\x1b[?1049l")).toBeGreaterThan(after.indexOf("\x1b[?2004l"));
			expect(after).toContain("\x1b[?25h");
		});

		it("an uncaught exception still restores the terminal", () => {
			const { output, status } = runUnderPty(
				`${startApp("TuiMainScreen")}\nsetTimeout(() => { throw new Error("boom"); }, 0);`,
			);
			expect(status).not.toBe(0);
			const after = output.slice(output.indexOf("hello from child"));
			expect(after).toContain("\x1b[?2004l");
			expect(after).toContain("\x1b[?25h");
		});

		it("SIGTERM restores the terminal and still terminates", () => {
			const { output, status } = runUnderPty(
				`${startApp("TuiMainScreen")}\nprocess.kill(process.pid, "SIGTERM");\nsetTimeout(() => {}, 5000);`,
			);
			expect(status).not.toBe(0);
			const after = output.slice(output.indexOf("hello from child"));
			expect(after).toContain("\x1b[?2004l");
			expect(after).toContain("\x1b[?25h");
		});
	},
);
