import { byId, h } from "./dom.js";
import type { SessionModel } from "./session-model.js";
import { buildTreeRows, isFailure, TREE_FILTERS, type TreeFilter, type TreeRow } from "./tree-rows.js";

/** Fixed row height (matches `.tree-row` in the styles), so only the rows in view are in the DOM. */
const ROW_HEIGHT = 24;
const OVERSCAN = 20;
const MAX_INDENT = 24;

/**
 * The sidebar: the whole session tree with filters and search, virtualised so a session with
 * thousands of entries costs a screenful of rows.
 */
export class TreeView {
	private rows: TreeRow[] = [];
	private filter: TreeFilter = "default";
	private query = "";
	private pathIds = new Set<string>();
	private selectedId: string | undefined;
	private readonly container = byId("tree");
	private readonly spacer = h("div", { class: "tree-spacer" });
	private readonly status = byId("tree-status");
	private readonly search = byId<HTMLInputElement>("tree-search");
	private frame = 0;

	constructor(
		private readonly model: SessionModel,
		private readonly onSelect: (entryId: string) => void,
	) {
		this.container.append(this.spacer);
		const filters = byId("tree-filters");
		for (const option of TREE_FILTERS) {
			const button = h("button", { type: "button", title: option.title, "data-filter": option.id }, option.label);
			button.addEventListener("click", () => this.setFilter(option.id));
			filters.append(button);
		}
		this.search.addEventListener("input", () => {
			this.query = this.search.value;
			this.rebuild();
		});
		this.container.addEventListener("scroll", () => this.schedule());
		this.container.addEventListener("keydown", (event) => this.onKey(event));
		new ResizeObserver(() => this.schedule()).observe(this.container);
		this.rebuild();
	}

	setFilter(filter: TreeFilter): void {
		this.filter = filter;
		this.rebuild();
	}

	/** Marks the shown branch and the selected entry, and scrolls the selected row into view. */
	showBranch(pathIds: readonly string[], selectedId: string): void {
		this.pathIds = new Set(pathIds);
		this.selectedId = selectedId;
		const index = this.rows.findIndex((row) => row.entry.id === selectedId);
		if (index >= 0) {
			const top = index * ROW_HEIGHT;
			const view = this.container.clientHeight;
			if (top < this.container.scrollTop || top + ROW_HEIGHT > this.container.scrollTop + view) {
				this.container.scrollTop = Math.max(0, top - view / 3);
			}
		}
		this.render();
	}

	private rebuild(): void {
		this.rows = buildTreeRows(this.model, this.filter, this.query);
		for (const button of byId("tree-filters").querySelectorAll("button")) {
			button.classList.toggle("active", button.dataset.filter === this.filter);
		}
		const total = this.model.entries.length;
		this.status.textContent = this.query.trim()
			? `${this.rows.length} matching ${this.rows.length === 1 ? "entry" : "entries"}`
			: `${this.rows.length} of ${total} entries`;
		this.spacer.style.height = `${this.rows.length * ROW_HEIGHT}px`;
		this.render();
	}

	private schedule(): void {
		if (this.frame) return;
		this.frame = requestAnimationFrame(() => {
			this.frame = 0;
			this.render();
		});
	}

	private render(): void {
		const first = Math.max(0, Math.floor(this.container.scrollTop / ROW_HEIGHT) - OVERSCAN);
		const visible = Math.ceil((this.container.clientHeight || 800) / ROW_HEIGHT) + OVERSCAN * 2;
		const last = Math.min(this.rows.length, first + visible);
		const elements: HTMLElement[] = [];
		for (let index = first; index < last; index++) elements.push(this.renderRow(this.rows[index]!, index));
		this.spacer.replaceChildren(...elements);
	}

	private renderRow(row: TreeRow, index: number): HTMLElement {
		const id = row.entry.id;
		const classes = ["tree-row", `kind-${row.kind.replace(/[^a-z]/g, "-")}`];
		if (this.pathIds.has(id)) classes.push("on-path");
		if (id === this.selectedId) classes.push("selected");
		if (isFailure(row.entry)) classes.push("failed");
		const element = h(
			"div",
			{
				class: classes.join(" "),
				role: "treeitem",
				"data-entry": id,
				"aria-selected": id === this.selectedId ? "true" : "false",
				title: `${row.kind}: ${row.preview.slice(0, 300)}`,
			},
			row.branch ? h("span", { class: "tree-branch" }, row.branch === "last" ? "└" : "├") : null,
			h("span", { class: "tree-kind" }, row.kind),
			row.label ? h("span", { class: "tree-label" }, row.label) : null,
			id === this.model.leafId ? h("span", { class: "tree-leaf", title: "Where the session was" }, "●") : null,
			h("span", { class: "tree-preview" }, row.preview.slice(0, 300)),
		);
		element.style.top = `${index * ROW_HEIGHT}px`;
		element.style.paddingLeft = `${6 + Math.min(row.depth, MAX_INDENT) * 12}px`;
		element.addEventListener("click", () => this.onSelect(id));
		return element;
	}

	private onKey(event: KeyboardEvent): void {
		if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
		event.preventDefault();
		const current = this.rows.findIndex((row) => row.entry.id === this.selectedId);
		const next = Math.min(this.rows.length - 1, Math.max(0, current + (event.key === "ArrowDown" ? 1 : -1)));
		const row = this.rows[next];
		if (row) this.onSelect(row.entry.id);
	}
}
