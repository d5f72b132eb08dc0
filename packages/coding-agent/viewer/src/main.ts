import type { ViewerPayload } from "../../src/export/viewer-payload.js";
import { byId, h, isRecord } from "./dom.js";
import { HeaderView } from "./header-view.js";
import { setUpLayout } from "./layout.js";
import { MessageList } from "./message-list.js";
import { expandAllUnder } from "./output-block.js";
import { SessionModel } from "./session-model.js";
import { setUpTheme } from "./theme.js";
import { TreeView } from "./tree-view.js";

const HASH_PREFIX = "#entry-";

function readPayload(): ViewerPayload {
	const data = JSON.parse(byId("tau-session-data").textContent ?? "") as unknown;
	if (!isRecord(data) || data.format !== 1 || !Array.isArray(data.entries)) throw new Error("unknown export format");
	return data as unknown as ViewerPayload;
}

function start(): void {
	const payload = readPayload();
	setUpTheme(payload.theme);
	const layout = setUpLayout();
	const model = new SessionModel(payload.entries, payload.leafId);
	const header = new HeaderView(model, payload);
	const messages = new MessageList({ model, toolRenders: payload.toolRenders ?? {} });

	/** Shows the branch through `targetId` and scrolls to it (to the top of the page with `fromTop`). */
	const navigate = (targetId: string, fromTop = false) => {
		const branch = model.pathTo(model.leafThrough(targetId));
		messages.show(branch, fromTop ? undefined : targetId);
		tree.showBranch(
			branch.map((entry) => entry.id),
			targetId,
		);
		header.showBranch(branch);
	};
	const tree = new TreeView(model, (entryId) => {
		layout.closeDrawer();
		const hash = `${HASH_PREFIX}${encodeURIComponent(entryId)}`;
		if (location.hash === hash) navigate(entryId);
		else location.hash = hash;
	});
	const fromHash = (): string | undefined => {
		if (!location.hash.startsWith(HASH_PREFIX)) return undefined;
		let id: string;
		try {
			id = decodeURIComponent(location.hash.slice(HASH_PREFIX.length));
		} catch {
			return undefined;
		}
		return model.byId.has(id) ? id : undefined;
	};
	window.addEventListener("hashchange", () => {
		const id = fromHash();
		if (id) navigate(id);
	});

	const expandAll = () => {
		messages.renderAll();
		expandAllUnder(messages.root);
	};
	byId("expand-all").addEventListener("click", expandAll);
	window.addEventListener("beforeprint", expandAll);

	const linked = fromHash();
	if (linked) navigate(linked);
	// Without a link the page opens at the start of the branch the session was on.
	else if (model.leafId) navigate(model.leafId, true);
	else byId("messages").append(h("p", { class: "empty" }, "This session has no entries."));
	document.body.classList.add("ready");
}

try {
	start();
} catch (error) {
	byId("messages").append(h("p", { class: "notice error" }, `This export could not be opened: ${String(error)}`));
}
