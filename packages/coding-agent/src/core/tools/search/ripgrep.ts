import { spawn } from "node:child_process";
import { basename } from "node:path";
import { createInterface } from "node:readline";
import { trackChild } from "../shell/process-group.js";
import { ABORTED_MESSAGE } from "../types.js";
import type { SearchBinary } from "./binaries.js";
import type { GrepCollector } from "./grep-output.js";
import type { GrepQuery } from "./node-grep.js";

interface RgText {
	text?: string;
	bytes?: string;
}

interface RgEvent {
	type: string;
	data?: { path?: RgText; lines?: RgText; line_number?: number };
}

/** ripgrep reports non-UTF-8 paths and lines as base64 `bytes`. */
function decode(value: RgText | undefined): string {
	if (!value) return "";
	return value.text ?? Buffer.from(value.bytes ?? "", "base64").toString("utf8");
}

function stripTerminator(line: string): string {
	if (line.endsWith("\r\n")) return line.slice(0, -2);
	return line.endsWith("\n") ? line.slice(0, -1) : line;
}

/** Builds the ripgrep command line (docs/design/tools.md#grep). */
export function ripgrepArguments(query: GrepQuery, target: string): string[] {
	const args = ["--no-config", "--json", "--line-number", "--color=never", "--hidden", "--glob", "!.git"];
	if (query.ignoreCase) args.push("--ignore-case");
	if (query.literal) args.push("--fixed-strings");
	if (query.glob) {
		const negated = query.glob.startsWith("!");
		const body = (negated ? query.glob.slice(1) : query.glob).replace(/^(\.\/)+/, "");
		args.push("--glob", `${negated ? "!" : ""}${body}`);
	}
	if (query.context > 0) args.push("--context", String(query.context));
	args.push("--", query.pattern, target);
	return args;
}

/**
 * Runs ripgrep and feeds its JSON events to the collector. Directory searches run inside the
 * directory with target `.`, so globs are rooted there; a file search passes the file path.
 */
export function runRipgrep(
	binary: SearchBinary,
	searchPath: string,
	isDirectory: boolean,
	query: GrepQuery,
	collector: GrepCollector,
	signal: AbortSignal | undefined,
): Promise<void> {
	return new Promise((resolve, reject) => {
		const args = ripgrepArguments(query, isDirectory ? "." : searchPath);
		const child = spawn(binary.path, args, {
			...(isDirectory ? { cwd: searchPath } : {}),
			stdio: ["ignore", "pipe", "pipe"],
			windowsHide: true,
		});
		trackChild(child, "process");
		let stopped = false;
		let aborted = false;
		let stderr = "";
		const onAbort = () => {
			aborted = true;
			child.kill("SIGKILL");
		};
		signal?.addEventListener("abort", onAbort, { once: true });
		child.stderr.on("data", (data: Buffer) => {
			stderr += data.toString("utf8");
		});
		const fileName = isDirectory ? undefined : basename(searchPath);
		const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
		lines.on("line", (raw) => {
			if (stopped) return;
			let event: RgEvent;
			try {
				event = JSON.parse(raw) as RgEvent;
			} catch {
				return;
			}
			if ((event.type !== "match" && event.type !== "context") || !event.data) return;
			const path = fileName ?? decode(event.data.path).replace(/^\.\//, "");
			const keepGoing = collector.add({
				kind: event.type,
				path,
				lineNumber: event.data.line_number ?? 0,
				text: stripTerminator(decode(event.data.lines)),
			});
			if (!keepGoing) {
				stopped = true;
				child.kill("SIGKILL");
			}
		});
		child.once("error", (error) => {
			signal?.removeEventListener("abort", onAbort);
			reject(new Error(`Failed to run ripgrep: ${error.message}`));
		});
		child.once("close", (code) => {
			signal?.removeEventListener("abort", onAbort);
			if (aborted) reject(new Error(ABORTED_MESSAGE));
			else if (stopped || code === 0 || code === 1) resolve();
			else reject(new Error(stderr.trim() || `ripgrep exited with code ${code}`));
		});
	});
}
