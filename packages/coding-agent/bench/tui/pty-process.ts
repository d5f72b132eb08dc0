// A CLI running in a real pseudo-terminal, driven from the benchmark: util-linux `script` owns the
// pty (no native module to build) and relays our pipe to its input and its output to our pipe.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

export interface PtyOptions {
	node: string;
	args: readonly string[];
	cwd: string;
	env: NodeJS.ProcessEnv;
	columns: number;
	rows: number;
}

/** Why a pty cannot be had here, or undefined when `script` works. */
export function ptyUnavailable(): string | undefined {
	if (process.platform !== "linux") return "the TUI benchmark needs Linux (/proc and util-linux script)";
	try {
		execFileSync("script", ["--version"], { stdio: "ignore" });
		return undefined;
	} catch {
		return "util-linux `script` is not installed (apt-get install -y bsdutils)";
	}
}

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

const CLOCK_TICKS = (() => {
	try {
		return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
	} catch {
		return 100;
	}
})();

interface Waiter {
	text: string;
	from: number;
	resolve: (at: number) => void;
}

/** The program's screen output as one growing string, with waits for text to appear in it. */
export class PtyProcess {
	private readonly child: ChildProcessWithoutNullStreams;
	private readonly decoder = new StringDecoder("utf8");
	private waiters: Waiter[] = [];
	/** Everything written to the terminal so far, decoded. */
	output = "";
	/** Bytes written to the terminal so far. */
	bytes = 0;
	readonly exited: Promise<number | null>;

	constructor(options: PtyOptions) {
		const command = [
			`stty rows ${options.rows} cols ${options.columns}`,
			`exec ${[options.node, ...options.args].map(quote).join(" ")}`,
		].join("; ");
		this.child = spawn("script", ["--quiet", "--flush", "--return", "--command", command, "/dev/null"], {
			cwd: options.cwd,
			env: { ...options.env, TERM: "xterm-256color", COLORTERM: "truecolor" },
		});
		this.child.stdout.on("data", (chunk: Buffer) => this.receive(chunk));
		this.child.stderr.on("data", (chunk: Buffer) => this.receive(chunk));
		this.exited = new Promise((resolve) => this.child.on("close", (code) => resolve(code)));
	}

	private receive(chunk: Buffer): void {
		const at = performance.now();
		this.bytes += chunk.length;
		this.output += this.decoder.write(chunk);
		if (this.waiters.length === 0) return;
		this.waiters = this.waiters.filter((waiter) => {
			if (this.output.indexOf(waiter.text, waiter.from) < 0) return true;
			waiter.resolve(at);
			return false;
		});
	}

	/** Types `data` into the terminal. */
	write(data: string): void {
		this.child.stdin.write(data);
	}

	/**
	 * Resolves with the `performance.now()` time at which `text` appeared in the output at or after
	 * offset `from`; rejects after `timeoutMs` with the tail of the output for diagnosis.
	 */
	waitFor(text: string, from = 0, timeoutMs = 60_000): Promise<number> {
		if (this.output.indexOf(text, from) >= 0) return Promise.resolve(performance.now());
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => {
				this.waiters = this.waiters.filter((w) => w !== waiter);
				const tail = JSON.stringify(this.output.slice(-600));
				reject(new Error(`timed out waiting for ${JSON.stringify(text)}; output ends with ${tail}`));
			}, timeoutMs);
			const waiter: Waiter = {
				text,
				from,
				resolve: (at) => {
					clearTimeout(timer);
					resolve(at);
				},
			};
			this.waiters.push(waiter);
		});
	}

	/** The program's own pid: `script` forks a shell that execs it. */
	private programPid(): number | undefined {
		const pid = this.child.pid;
		if (pid === undefined) return undefined;
		try {
			const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/);
			return children[0] ? Number(children[0]) : undefined;
		} catch {
			return undefined;
		}
	}

	/** CPU time (user + system, ms) the program has used so far. */
	cpuMs(): number {
		const pid = this.programPid();
		if (pid === undefined) return 0;
		try {
			const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
			// Fields after the parenthesised command name; utime and stime are fields 14 and 15.
			const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
			return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
		} catch {
			return 0;
		}
	}

	/**
	 * Asks the program to exit (SIGTERM, so it can write a `--cpu-prof` profile), waits up to
	 * `timeoutMs` for it, then ends whatever is left.
	 */
	async terminate(timeoutMs = 10_000): Promise<void> {
		const pid = this.programPid();
		if (pid !== undefined) {
			try {
				process.kill(pid, "SIGTERM");
				let timer: NodeJS.Timeout | undefined;
				await Promise.race([this.exited, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
				clearTimeout(timer);
			} catch {
				// Already gone.
			}
		}
		await this.kill();
	}

	/** Ends the program (and `script`) and waits for it. */
	async kill(): Promise<void> {
		const pid = this.programPid();

		if (pid !== undefined) {
			try {
				process.kill(pid, "SIGKILL");
			} catch {
				// Already gone.
			}
		}
		this.child.kill("SIGKILL");
		await this.exited;
	}
}
