import type { TrialRecord } from "../results/trial-record.js";

/** Running totals of a run, shared by the live display and the line log. */
export class ProgressState {
	total = 0;
	done = 0;
	running = 0;
	passed = 0;
	failed = 0;
	infraErrors = 0;
	tokens = 0;
	cost = 0;
	private durationMs = 0;
	private finishedHere = 0;

	constructor(private readonly concurrency: number) {}

	/** Trials recorded before this process started (`--resume`) count as done. */
	begin(total: number, recorded: readonly TrialRecord[]): void {
		this.total = total;
		for (const record of recorded) this.count(record);
	}

	started(): void {
		this.running++;
	}

	finished(record: TrialRecord): void {
		this.running--;
		this.finishedHere++;
		this.durationMs += record.durationMs;
		this.count(record);
	}

	interrupted(): void {
		this.running--;
	}

	/** Pass rate over the trials that count (infrastructure errors excluded), undefined before any. */
	passRate(): number | undefined {
		const counted = this.passed + this.failed;
		return counted > 0 ? this.passed / counted : undefined;
	}

	/** Milliseconds left at the mean duration of the trials this process ran, `concurrency` at a time. */
	etaMs(): number | undefined {
		if (this.finishedHere === 0) return undefined;
		const remaining = this.total - this.done;
		return ((this.durationMs / this.finishedHere) * remaining) / this.concurrency;
	}

	private count(record: TrialRecord): void {
		this.done++;
		this.tokens += record.tokens.total;
		this.cost += record.cost;
		if (record.outcome === "pass") this.passed++;
		else if (record.outcome === "fail") this.failed++;
		else this.infraErrors++;
	}
}
