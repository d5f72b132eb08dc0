import type { TrialRecord } from "../results/trial-record.js";
import { ProgressState } from "./progress-state.js";

/** Receives a run's events; the CLI shows them live on a terminal and as one line per trial otherwise. */
export interface ProgressReporter {
	begin(total: number, recorded: readonly TrialRecord[]): void;
	trialStarted(task: string, trial: number): void;
	trialFinished(record: TrialRecord): void;
	trialInterrupted(task: string, trial: number): void;
	end(): void;
}

function percent(value: number | undefined): string {
	return value === undefined ? "–" : `${(value * 100).toFixed(1)}%`;
}

function duration(ms: number | undefined): string {
	if (ms === undefined) return "–";
	const seconds = Math.round(ms / 1000);
	if (seconds < 60) return `${seconds}s`;
	const minutes = Math.floor(seconds / 60);
	return minutes < 60
		? `${minutes}m${String(seconds % 60).padStart(2, "0")}s`
		: `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

/** The one status line: trials done / running / failed, pass rate so far, tokens, cost and ETA. */
export function statusLine(state: ProgressState): string {
	return [
		`${state.done}/${state.total} done`,
		`${state.running} running`,
		`${state.failed} failed`,
		`${state.infraErrors} infra errors`,
		`pass ${percent(state.passRate())}`,
		`${state.tokens.toLocaleString("en-US")} tokens`,
		`$${state.cost.toFixed(4)}`,
		`ETA ${duration(state.etaMs())}`,
	].join(" · ");
}

/** One line per finished trial (logs, CI). */
export function trialLine(record: TrialRecord): string {
	const what = record.outcome === "pass" ? "PASS" : record.outcome === "fail" ? "FAIL" : "INFRA";
	const detail = record.error ? ` — ${record.error}` : "";
	return `${what} ${record.task} #${record.trial} reward=${record.reward} ${duration(record.durationMs)} ${record.turns} turns ${record.tokens.total} tokens $${record.cost.toFixed(4)}${detail}`;
}

/**
 * The progress display. On a terminal the status line is redrawn in place under the finished trials'
 * lines; elsewhere each finished trial prints one line and the totals print at the end.
 */
export function createProgressReporter(
	write: (text: string) => void,
	options: { live: boolean; concurrency: number },
): ProgressReporter {
	const state = new ProgressState(options.concurrency);
	const redraw = () => {
		if (options.live) write(`\r\x1b[2K${statusLine(state)}`);
	};
	const print = (line: string) => write(options.live ? `\r\x1b[2K${line}\n` : `${line}\n`);
	return {
		begin(total, recorded) {
			state.begin(total, recorded);
			if (recorded.length > 0) print(`resuming: ${recorded.length} of ${total} trials already recorded`);
			redraw();
		},
		trialStarted() {
			state.started();
			redraw();
		},
		trialFinished(record) {
			state.finished(record);
			print(trialLine(record));
			redraw();
		},
		trialInterrupted(task, trial) {
			state.interrupted();
			print(`STOPPED ${task} #${trial} (not recorded; --resume runs it again)`);
			redraw();
		},
		end() {
			if (options.live) write(`\r\x1b[2K${statusLine(state)}\n`);
			else write(`${statusLine(state)}\n`);
		},
	};
}
