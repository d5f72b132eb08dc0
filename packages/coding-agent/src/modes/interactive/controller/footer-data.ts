import { type FSWatcher, watch } from "node:fs";
import { dirname } from "node:path";
import type { ReadonlyFooterDataProvider } from "../../../core/extensions/index.js";
import { findGitHead, readGitBranch } from "./footer-state.js";

/**
 * What custom footers read (docs/extensions.md): the git branch (watched while anyone listens, so a
 * checkout in another terminal shows up), extension statuses and the number of usable providers.
 */
export class FooterData implements ReadonlyFooterDataProvider {
	private branch: string | undefined;
	private readonly listeners = new Set<() => void>();
	private watcher: FSWatcher | undefined;

	constructor(
		private cwd: string,
		private readonly statuses: ReadonlyMap<string, string>,
		private readonly providerCount: () => number,
	) {
		this.branch = readGitBranch(cwd);
	}

	getGitBranch(): string | null {
		return this.branch ?? null;
	}

	getExtensionStatuses(): ReadonlyMap<string, string> {
		return this.statuses;
	}

	getAvailableProviderCount(): number {
		return this.providerCount();
	}

	/** Calls `callback` after the checked-out branch changes; returns the unsubscribe function. */
	onBranchChange(callback: () => void): () => void {
		this.listeners.add(callback);
		this.watchHead();
		return () => {
			this.listeners.delete(callback);
			if (this.listeners.size === 0) this.stopWatching();
		};
	}

	/** A session in another directory: re-read the branch and watch that repository instead. */
	setCwd(cwd: string): void {
		this.cwd = cwd;
		this.stopWatching();
		this.refresh();
		if (this.listeners.size > 0) this.watchHead();
	}

	/** Re-reads the branch and tells the listeners when it changed. */
	refresh(): void {
		const next = readGitBranch(this.cwd);
		if (next === this.branch) return;
		this.branch = next;
		for (const listener of [...this.listeners]) listener();
	}

	dispose(): void {
		this.listeners.clear();
		this.stopWatching();
	}

	private watchHead(): void {
		if (this.watcher) return;
		const head = findGitHead(this.cwd);
		if (!head) return;
		try {
			// Git replaces HEAD by renaming a lock file over it, so the directory is watched, not the file.
			this.watcher = watch(dirname(head), (_event, file) => {
				if (file === null || file === "HEAD") this.refresh();
			});
			this.watcher.on("error", () => this.stopWatching());
			// Watching must not keep the process alive after the UI quits.
			this.watcher.unref();
		} catch {
			this.watcher = undefined;
		}
	}

	private stopWatching(): void {
		this.watcher?.close();
		this.watcher = undefined;
	}
}
