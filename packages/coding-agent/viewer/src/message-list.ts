import { byId, h, isRecord, text } from "./dom.js";
import { messageOf, toolCallsOf } from "./entry-text.js";
import { type EntryViewContext, renderEntry } from "./entry-view.js";
import type { Entry } from "./session-model.js";
import type { ToolViewContext } from "./tool-view.js";

/** Entries rendered at a time when the reader scrolls near either end of what is shown. */
const CHUNK = 40;
/** Entries rendered before the target when opening a branch at an entry. */
const BEFORE_TARGET = 10;

/**
 * The shown branch, rendered on demand: a window of entries around the target that grows by a
 * chunk whenever a sentinel at either end comes near the viewport, so opening a branch of
 * thousands of entries renders a few dozen.
 */
export class MessageList {
	private branch: Entry[] = [];
	private context: EntryViewContext;
	private start = 0;
	private end = 0;
	private readonly scroller = byId("content");
	private readonly container = byId("messages");
	private readonly topSentinel = h("div", { class: "sentinel", "aria-hidden": "true" });
	private readonly bottomSentinel = h("div", { class: "sentinel", "aria-hidden": "true" });
	private readonly list = h("div", { class: "entries" });
	private readonly rendered = new Map<string, HTMLElement>();
	/** Tool result entries whose call element is not in the list yet. */
	private readonly pendingResults = new Set<string>();
	private readonly observer: IntersectionObserver;

	constructor(private readonly base: ToolViewContext) {
		this.context = { ...base, branchCallIds: new Set() };
		this.container.append(this.topSentinel, this.list, this.bottomSentinel);
		this.observer = new IntersectionObserver((changes) => this.onIntersect(changes), {
			root: this.scroller,
			rootMargin: "1500px 0px",
		});
		this.observer.observe(this.topSentinel);
		this.observer.observe(this.bottomSentinel);
	}

	/**
	 * Shows `branch` (root first) and scrolls to `targetId` (marked as the target), or to the top when
	 * there is none; re-renders only when the branch or the window must change.
	 */
	show(branch: Entry[], targetId: string | undefined): void {
		const sameBranch =
			branch.length === this.branch.length && branch.every((entry, index) => entry === this.branch[index]);
		const index = Math.max(
			0,
			branch.findIndex((entry) => entry.id === targetId),
		);
		if (!sameBranch) {
			this.branch = branch;
			const callIds = new Set<string>();
			for (const entry of branch) {
				for (const call of toolCallsOf(messageOf(entry)?.content))
					if (typeof call.id === "string") callIds.add(call.id);
			}
			this.context = { ...this.base, branchCallIds: callIds };
		}
		if (sameBranch && index >= this.start && index < this.end) {
			this.scrollTo(targetId);
			return;
		}
		this.rendered.clear();
		this.pendingResults.clear();
		this.list.replaceChildren();
		this.start = this.end = Math.max(0, index - BEFORE_TARGET);
		this.appendUntil(Math.min(branch.length, index + CHUNK));
		this.scrollTo(targetId);
	}

	/** Renders the whole branch (Expand all, printing). */
	renderAll(): void {
		this.prependFrom(0);
		this.appendUntil(this.branch.length);
	}

	get root(): HTMLElement {
		return this.list;
	}

	/** The element showing an entry: its own, its tool call's (for a result), or the nearest rendered entry before it. */
	elementFor(entryId: string): HTMLElement | undefined {
		const own = this.rendered.get(entryId);
		if (own) return own;
		const index = this.branch.findIndex((entry) => entry.id === entryId);
		for (let at = index; at >= this.start && at >= 0; at--) {
			const element = this.rendered.get(this.branch[at]!.id);
			if (element) return element;
		}
		return undefined;
	}

	private scrollTo(entryId: string | undefined): void {
		for (const previous of this.list.querySelectorAll(".target")) previous.classList.remove("target");
		if (entryId === undefined) {
			this.scroller.scrollTop = 0;
			return;
		}
		const element = this.elementFor(entryId);
		if (!element) return;
		element.classList.add("target");
		element.scrollIntoView({ block: "start" });
	}

	private renderOne(entry: Entry): HTMLElement | undefined {
		let element: HTMLElement | null;
		try {
			element = renderEntry(entry, this.context);
		} catch (error) {
			// One malformed entry must not take the page down; it shows as what it is.
			element = h("article", { class: "entry meta" }, `Entry ${entry.id} could not be shown: ${String(error)}`);
		}
		if (!element) {
			this.linkResultToCall(entry);
			return undefined;
		}
		element.id = `entry-${entry.id}`;
		element.dataset.entryId = entry.id;
		this.rendered.set(entry.id, element);
		return element;
	}

	/** A tool result shown under its call: the call's element stands for the result entry. */
	private linkResultToCall(entry: Entry): void {
		const message = messageOf(entry);
		if (!isRecord(message) || message.role !== "toolResult") return;
		const call = this.list.querySelector<HTMLElement>(`[data-result-entry="${CSS.escape(entry.id)}"]`);
		if (call) this.rendered.set(entry.id, call);
		else if (text(message.toolCallId)) this.pendingResults.add(entry.id);
	}

	private appendUntil(end: number): void {
		const fragment = document.createDocumentFragment();
		for (let index = this.end; index < end; index++) {
			const element = this.renderOne(this.branch[index]!);
			if (element) fragment.append(element);
		}
		this.end = Math.max(this.end, end);
		this.list.append(fragment);
		this.resolvePendingResults();
	}

	private prependFrom(start: number): void {
		if (start >= this.start) return;
		const fragment = document.createDocumentFragment();
		for (let index = start; index < this.start; index++) {
			const element = this.renderOne(this.branch[index]!);
			if (element) fragment.append(element);
		}
		const before = this.scroller.scrollHeight;
		this.list.prepend(fragment);
		this.start = start;
		// Keep what the reader is looking at in place.
		this.scroller.scrollTop += this.scroller.scrollHeight - before;
		this.resolvePendingResults();
	}

	private resolvePendingResults(): void {
		for (const entryId of this.pendingResults) {
			const call = this.list.querySelector<HTMLElement>(`[data-result-entry="${CSS.escape(entryId)}"]`);
			if (!call) continue;
			this.rendered.set(entryId, call);
			this.pendingResults.delete(entryId);
		}
	}

	private onIntersect(changes: IntersectionObserverEntry[]): void {
		for (const change of changes) {
			if (!change.isIntersecting) continue;
			if (change.target === this.bottomSentinel && this.end < this.branch.length) {
				this.appendUntil(Math.min(this.branch.length, this.end + CHUNK));
			} else if (change.target === this.topSentinel && this.start > 0) {
				this.prependFrom(Math.max(0, this.start - CHUNK));
			}
		}
		// A sentinel still in range after growing gets no new callback: look again.
		requestAnimationFrame(() => this.recheck());
	}

	private recheck(): void {
		const view = this.scroller.getBoundingClientRect();
		const near = (element: HTMLElement) => {
			const box = element.getBoundingClientRect();
			return box.bottom >= view.top - 1500 && box.top <= view.bottom + 1500;
		};
		if (this.end < this.branch.length && near(this.bottomSentinel)) {
			this.appendUntil(Math.min(this.branch.length, this.end + CHUNK));
			requestAnimationFrame(() => this.recheck());
		} else if (this.start > 0 && near(this.topSentinel)) {
			this.prependFrom(Math.max(0, this.start - CHUNK));
			requestAnimationFrame(() => this.recheck());
		}
	}
}
