import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isKeyRelease, isKittyProtocolActive, matchesKey, ProcessTerminal } from "@tau/tui";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeStdin, FakeStdout } from "./helpers/fake-stdio.js";

function setup() {
	const stdin = new FakeStdin();
	const stdout = new FakeStdout();
	const terminal = new ProcessTerminal({ stdin, stdout });
	const inputs: string[] = [];
	let resizes = 0;
	terminal.start(
		(d) => inputs.push(d),
		() => resizes++,
	);
	return { stdin, stdout, terminal, inputs, resizes: () => resizes };
}

beforeEach(() => {
	vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
	vi.spyOn(process, "kill").mockImplementation(() => true);
});
afterEach(() => {
	vi.useRealTimers();
	vi.restoreAllMocks();
	vi.unstubAllEnvs();
});

describe("ProcessTerminal", () => {
	it("start enables raw mode, bracketed paste and negotiates the keyboard protocol", () => {
		const { stdin, stdout, terminal } = setup();
		expect(stdin.isRaw).toBe(true);
		expect(stdin.paused).toBe(false);
		expect(stdout.output).toBe("\x1b[?2004h\x1b[>7u\x1b[?u\x1b]7501;?\x1b\\\x1b[c");
		terminal.stop();
	});

	it("omits the program-status query when TAU_PROGRAM_STATUS is 0 or 1", () => {
		for (const value of ["0", "1"]) {
			vi.stubEnv("TAU_PROGRAM_STATUS", value);
			const { stdout, terminal } = setup();
			expect(stdout.output, value).toBe("\x1b[?2004h\x1b[>7u\x1b[?u\x1b[c");
			terminal.stop();
		}
	});

	it("stop disables bracketed paste, pops Kitty flags, pauses stdin and restores raw mode", () => {
		const { stdin, stdout, terminal } = setup();
		stdout.output = "";
		terminal.stop();
		expect(stdout.output).toBe("\x1b[?2004l\x1b[<u");
		expect(stdin.paused).toBe(true);
		expect(stdin.rawModeCalls).toEqual([true, false]);
		expect(stdin.listenerCount("data")).toBe(0);
	});

	it("a Kitty flags reply activates Kitty parsing and is not delivered", () => {
		const { stdin, terminal, inputs } = setup();
		stdin.type("\x1b[?7u");
		expect(inputs).toEqual([]);
		expect(terminal.kittyProtocolActive).toBe(true);
		expect(isKittyProtocolActive()).toBe(true);
		expect(matchesKey("\n", "shift+enter")).toBe(true);
		terminal.stop();
		expect(isKittyProtocolActive()).toBe(false);
	});

	it("a lone DA1 reply enables modifyOtherKeys; a DA1 not owed is input", () => {
		const { stdin, stdout, terminal, inputs } = setup();
		stdout.output = "";
		stdin.type("\x1b[?62;22c");
		expect(inputs).toEqual([]);
		expect(stdout.output).toBe("\x1b[>4;2m");
		stdin.type("\x1b[?62;22c");
		expect(inputs).toEqual(["\x1b[?62;22c"]);
		stdout.output = "";
		terminal.stop();
		expect(stdout.output).toContain("\x1b[>4;0m");
	});

	it("recognises a reply split as ESC [ + ?7u", () => {
		const { stdin, terminal, inputs } = setup();
		stdin.type("\x1b[");
		vi.advanceTimersByTime(50);
		stdin.type("?7u");
		expect(inputs).toEqual([]);
		expect(terminal.kittyProtocolActive).toBe(true);
		terminal.stop();
	});

	it("delivers a lone ESC [ after 150 ms", () => {
		const { stdin, terminal, inputs } = setup();
		stdin.type("\x1b[");
		vi.advanceTimersByTime(50);
		expect(inputs).toEqual([]);
		vi.advanceTimersByTime(150);
		expect(inputs).toEqual(["\x1b["]);
		terminal.stop();
	});

	it("delivers a lone ESC after 10 ms, or 100 ms over SSH, or TAU_TUI_ESC_TIMEOUT", () => {
		/** Types ESC and checks it is delivered exactly `ms` later. */
		const expectEscAfter = (ms: number) => {
			const { stdin, terminal, inputs } = setup();
			stdin.type("\x1b");
			vi.advanceTimersByTime(ms - 1);
			expect(inputs).toEqual([]);
			vi.advanceTimersByTime(1);
			expect(inputs).toEqual(["\x1b"]);
			terminal.stop();
		};
		expectEscAfter(10);
		vi.stubEnv("SSH_TTY", "/dev/pts/1");
		expectEscAfter(100);
		vi.stubEnv("TAU_TUI_ESC_TIMEOUT", "30");
		expectEscAfter(30);
	});

	it("re-wraps a bracketed paste split across chunks as one input", () => {
		const { stdin, terminal, inputs } = setup();
		for (const c of ["\x1b[200~a", "b:3", "u", "c\x1b[20", "1~"]) stdin.type(c);
		expect(inputs).toEqual(["\x1b[200~ab:3uc\x1b[201~"]);
		expect(isKeyRelease(inputs[0]!)).toBe(false);
		terminal.stop();
	});

	it("a program-status reply marks support and re-sends the status; stop clears it", () => {
		const { stdin, stdout, terminal } = setup();
		terminal.setProgramStatus({ state: "working", app: "tau" });
		expect(stdout.output).not.toContain("state=working");
		stdin.type("\x1b]7501;?1\x1b\\");
		expect(stdout.output).toContain("\x1b]7501;state=working:app=tau\x1b\\");
		stdout.output = "";
		terminal.stop();
		expect(stdout.output).toContain("\x1b]7501;state=clear\x1b\\");
	});

	it("restoreOnExit writes the restore sequence synchronously to the stdout fd", () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tau-tui-restore-"));
		const file = path.join(dir, "out");
		const fd = fs.openSync(file, "w");
		const stdin = new FakeStdin();
		const terminal = new ProcessTerminal({ stdin, stdout: new FakeStdout(fd) });
		terminal.start(
			() => {},
			() => {},
		);
		terminal.restoreOnExit("<before>", "<after>");
		fs.closeSync(fd);
		expect(fs.readFileSync(file, "utf8")).toBe("<before>\x1b[?2004l\x1b[<u<after>");
	});

	it("TAU_TUI_WRITE_LOG naming a directory logs writes to tui-<timestamp>-<pid>.log", () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tau-tui-log-"));
		vi.stubEnv("TAU_TUI_WRITE_LOG", dir);
		const { terminal } = setup();
		terminal.write("hello");
		terminal.stop();
		const files = fs.readdirSync(dir);
		expect(files).toHaveLength(1);
		expect(files[0]).toMatch(new RegExp(`^tui-\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}-\\d{2}-${process.pid}\\.log$`));
		const logged = fs.readFileSync(path.join(dir, files[0]!), "utf8");
		expect(logged.startsWith("\x1b[?2004h")).toBe(true);
		expect(logged).toContain("hello");
	});

	it("forwards resize events and sets the title with control characters replaced", () => {
		const { stdout, terminal, resizes } = setup();
		stdout.emit("resize");
		expect(resizes()).toBe(1);
		stdout.output = "";
		terminal.setTitle("a\nb");
		expect(stdout.output).toBe("\x1b]0;a b\x07");
		terminal.stop();
		stdout.emit("resize");
		expect(resizes()).toBe(1);
	});

	it("setProgress repeats the indeterminate report until turned off", () => {
		const { stdout, terminal } = setup();
		stdout.output = "";
		terminal.setProgress(true);
		vi.advanceTimersByTime(2000);
		expect(stdout.output).toBe("\x1b]9;4;3\x07".repeat(3));
		terminal.setProgress(false);
		vi.advanceTimersByTime(2000);
		expect(stdout.output.endsWith("\x1b]9;4;0\x07")).toBe(true);
		terminal.stop();
	});

	it("drainInput pops Kitty flags, swallows late input until idle, then restores the handler", async () => {
		const { stdin, stdout, terminal, inputs } = setup();
		stdin.type("\x1b[?7u");
		stdout.output = "";
		let drained = false;
		const drain = terminal.drainInput(1000, 50).then(() => {
			drained = true;
		});
		expect(stdout.output).toBe("\x1b[<u");
		await vi.advanceTimersByTimeAsync(30);
		stdin.type("\x1b[97;1:3u");
		await vi.advanceTimersByTimeAsync(40);
		expect(drained).toBe(false);
		await vi.advanceTimersByTimeAsync(20);
		await drain;
		expect(inputs).toEqual([]);
		stdin.type("x");
		expect(inputs).toEqual(["x"]);
		terminal.stop();
	});
});
