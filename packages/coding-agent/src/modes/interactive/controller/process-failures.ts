import type { EventEmitter } from "node:events";
import { existsSync, renameSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomicSync } from "../../../core/fs/atomic-write.js";

/** Where the mode hears about a dead terminal and about crashes; the real process by default. */
export interface FailureSources {
	/** The terminal's output streams (stdout, stderr). */
	streams: EventEmitter[];
	/** Emits `uncaughtException` and `unhandledRejection`. */
	process: EventEmitter;
}

export interface FailureHandlers {
	/** The terminal went away (EIO): nothing may be written to it any more. */
	deadTerminal(): void;
	crashed(error: unknown): void;
}

/**
 * Listens for a dead terminal, uncaught exceptions and unhandled rejections (docs/design/interactive.md#exit);
 * returns the undo.
 */
export function watchProcessFailures(
	handlers: FailureHandlers,
	sources: FailureSources = { streams: [process.stdout, process.stderr], process },
): () => void {
	const onStreamError = (error: NodeJS.ErrnoException) => {
		if (error.code === "EIO") handlers.deadTerminal();
	};
	const onCrash = (error: unknown) => handlers.crashed(error);
	for (const stream of sources.streams) stream.on("error", onStreamError);
	sources.process.on("uncaughtException", onCrash);
	sources.process.on("unhandledRejection", onCrash);
	return () => {
		for (const stream of sources.streams) stream.off("error", onStreamError);
		sources.process.off("uncaughtException", onCrash);
		sources.process.off("unhandledRejection", onCrash);
	};
}

const CRASH_LOG = "tau-crash.log";
const REPORTED_CRASH_LOG = "tau-crash.reported.log";

/** Writes `<agent-dir>/tau-crash.log`; returns its path, or undefined when even that failed. */
export function writeCrashLog(agentDir: string, error: unknown, now: Date = new Date()): string | undefined {
	const path = join(agentDir, CRASH_LOG);
	const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
	try {
		writeFileAtomicSync(path, `${now.toISOString()}\n${detail}\n`, { newFileMode: 0o600 });
		return path;
	} catch {
		return undefined;
	}
}

/**
 * The notice for a crash no process has reported yet (docs/design/interactive.md#startup). The log is kept,
 * renamed, so the next start stays quiet.
 */
export function takeUnreportedCrash(agentDir: string): string | undefined {
	const path = join(agentDir, CRASH_LOG);
	if (!existsSync(path)) return undefined;
	const kept = join(agentDir, REPORTED_CRASH_LOG);
	try {
		renameSync(path, kept);
	} catch {
		return undefined;
	}
	return `The previous session crashed. Crash log: ${kept}`;
}
