import { byId } from "./dom.js";

const MIN_WIDTH = 200;
const STEP = 24;

/** The sidebar: resizable by dragging (or arrow keys on) its edge, and a drawer on narrow screens. */
export function setUpLayout(): { closeDrawer(): void } {
	const root = document.documentElement;
	const sidebar = byId("sidebar");
	const resizer = byId("sidebar-resizer");
	const setWidth = (width: number) => {
		const max = Math.max(MIN_WIDTH, window.innerWidth * 0.7);
		root.style.setProperty("--sidebar-width", `${Math.round(Math.min(max, Math.max(MIN_WIDTH, width)))}px`);
	};
	resizer.addEventListener("pointerdown", (event) => {
		event.preventDefault();
		resizer.setPointerCapture(event.pointerId);
		document.body.classList.add("resizing");
		const move = (moved: PointerEvent) => setWidth(moved.clientX);
		const stop = () => {
			document.body.classList.remove("resizing");
			resizer.removeEventListener("pointermove", move);
			resizer.removeEventListener("pointerup", stop);
			resizer.removeEventListener("pointercancel", stop);
		};
		resizer.addEventListener("pointermove", move);
		resizer.addEventListener("pointerup", stop);
		resizer.addEventListener("pointercancel", stop);
	});
	resizer.addEventListener("keydown", (event) => {
		if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
		event.preventDefault();
		setWidth(sidebar.getBoundingClientRect().width + (event.key === "ArrowRight" ? STEP : -STEP));
	});
	const toggle = byId("sidebar-toggle");
	const setOpen = (open: boolean) => {
		document.body.classList.toggle("drawer-open", open);
		toggle.setAttribute("aria-expanded", String(open));
	};
	toggle.addEventListener("click", () => setOpen(!document.body.classList.contains("drawer-open")));
	return { closeDrawer: () => setOpen(false) };
}
