import { ansiToDom, hasAnsi } from "./ansi.js";
import { h } from "./dom.js";

/** Collapsed output shows its last lines, as the terminal does. */
export const COLLAPSED_LINES = 10;
/** ... and at most this many characters of them, so one huge line cannot flood the page. */
const COLLAPSED_CHARS = 3_000;

function renderText(target: HTMLElement, value: string, ansi: boolean): void {
	target.replaceChildren(ansi && hasAnsi(value) ? ansiToDom(value) : document.createTextNode(value));
}

/**
 * Terminal-style output (ANSI colours become HTML colours). Long output starts collapsed to its
 * tail with a button that shows everything; `expandAll` (and printing) opens every block.
 */
export function outputBlock(value: string, options: { className?: string; ansi?: boolean } = {}): HTMLElement {
	const ansi = options.ansi ?? true;
	const body = value.replace(/\s+$/, "");
	const lines = body.split("\n");
	const pre = h("pre", { class: `output ${options.className ?? ""}`.trim() });
	const tooLong = lines.length > COLLAPSED_LINES || body.length > COLLAPSED_CHARS;
	if (!tooLong) {
		renderText(pre, body, ansi);
		return pre;
	}
	let tail = lines.slice(-COLLAPSED_LINES).join("\n");
	if (tail.length > COLLAPSED_CHARS) tail = `…${tail.slice(-COLLAPSED_CHARS)}`;
	const hidden = lines.length - Math.min(COLLAPSED_LINES, lines.length);
	const wrapper = h("div", { class: "collapsible collapsed" }, pre);
	const button = h("button", { type: "button", class: "expand-output" });
	const show = (expanded: boolean) => {
		wrapper.classList.toggle("collapsed", !expanded);
		renderText(pre, expanded ? body : tail, ansi);
		button.textContent = expanded
			? "Show less"
			: hidden > 0
				? `Show all ${lines.length} lines (${hidden} earlier hidden)`
				: `Show all ${body.length.toLocaleString("en-US")} characters`;
		button.setAttribute("aria-expanded", String(expanded));
	};
	button.addEventListener("click", () => show(wrapper.classList.contains("collapsed")));
	wrapper.addEventListener("viewer:expand", () => show(true));
	wrapper.append(button);
	show(false);
	return wrapper;
}

/** Opens every collapsed output and `<details>` under `root` (Expand all, printing). */
export function expandAllUnder(root: HTMLElement): void {
	for (const block of root.querySelectorAll(".collapsible.collapsed")) block.dispatchEvent(new Event("viewer:expand"));
	for (const details of root.querySelectorAll("details")) details.open = true;
}
