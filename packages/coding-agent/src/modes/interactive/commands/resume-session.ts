import type { SelectItem } from "@tau/tui";
import { deleteSessionFile, type SessionInfo, SessionManager } from "../../../core/session/index.js";
import { countNoun } from "../../../core/text/count-noun.js";
import { boundKey } from "../keybindings/app-keybindings.js";
import type { CommandHost } from "./command-host.js";

/** What the picker shows; kept while it reopens after a toggle, a rename or a deletion. */
interface PickerState {
	allDirectories: boolean;
	sort: "recent" | "name";
	namedOnly: boolean;
	showPath: boolean;
	query: string;
	selected: string | undefined;
}

type PickerAction = "delete" | "rename" | "toggleScope" | "toggleSort" | "toggleNamed" | "togglePath";

function oneLine(text: string, max: number): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function titleOf(info: SessionInfo): string {
	return info.name ?? oneLine(info.firstMessage || "(empty)", 60);
}

async function listSessions(host: CommandHost, allDirectories: boolean): Promise<SessionInfo[]> {
	const manager = host.session.sessionManager;
	const customDir = manager.isPersisted() && !manager.usesDefaultSessionDir() ? manager.getSessionDir() : undefined;
	const sessions = allDirectories
		? await SessionManager.listAll(customDir, undefined, undefined, host.agentDir)
		: await SessionManager.list(
				host.runtime.cwd,
				manager.isPersisted() ? manager.getSessionDir() : undefined,
				undefined,
				undefined,
				host.agentDir,
			);
	return sessions.filter((info) => info.path !== host.session.sessionFile);
}

function itemsOf(sessions: SessionInfo[], state: PickerState): SelectItem[] {
	const shown = sessions.filter((info) => !state.namedOnly || info.name !== undefined);
	shown.sort((a, b) =>
		state.sort === "recent" ? b.modified.getTime() - a.modified.getTime() : titleOf(a).localeCompare(titleOf(b)),
	);
	return shown.map((info) => {
		const when = info.modified.toISOString().slice(0, 16).replace("T", " ");
		const where = state.showPath ? info.path : state.allDirectories ? info.cwd : "";
		return {
			value: info.path,
			label: titleOf(info),
			description: `${countNoun(info.messageCount, "message")} · ${when}${where ? ` · ${where}` : ""}`,
		};
	});
}

function hintOf(host: CommandHost): string {
	const key = (action: string) => boundKey(host.keys, action);
	return [
		`${key("tui.input.tab")} all dirs`,
		`${key("app.session.rename")} rename`,
		`${key("app.session.delete")} delete`,
		`${key("app.session.toggleSort")} sort`,
		`${key("app.session.toggleNamedFilter")} named`,
		`${key("app.session.togglePath")} path`,
	].join(" · ");
}

/** `app.session.delete`: asks, then removes the session file. */
async function deleteListed(host: CommandHost, item: SelectItem): Promise<void> {
	const confirm = await host.pick(`Delete "${item.label}"?`, [
		{ value: "no", label: "Keep it" },
		{ value: "yes", label: "Delete the session file" },
	]);
	if (confirm?.value !== "yes") return;
	deleteSessionFile(item.value, host.session.sessionManager);
	host.notify("info", `Session deleted: ${item.label}`);
}

/** `app.session.rename`: names another session by appending a `session_info` entry to its file. */
async function renameListed(host: CommandHost, item: SelectItem): Promise<void> {
	const name = await host.ask(`Rename "${item.label}"`, { prefill: item.label });
	if (name === undefined || name.trim() === "") return;
	const manager = SessionManager.open(item.value, undefined, undefined, { agentDir: host.agentDir });
	try {
		manager.appendSessionInfo(name.trim());
	} finally {
		// Releases the writer lock, so the renamed session can be resumed.
		manager.dispose();
	}
	host.notify("info", `Session renamed: ${name.trim()}`);
}

/**
 * `/resume` (docs/design/interactive.md#slash-commands): the sessions of this directory (Tab: of every directory), searchable,
 * with rename, delete, sort, named-only and path toggles. The chosen session opens in its recorded cwd.
 */
export async function resumeSession(host: CommandHost): Promise<void> {
	const state: PickerState = {
		allDirectories: false,
		sort: "recent",
		namedOnly: false,
		showPath: false,
		query: "",
		selected: undefined,
	};
	for (;;) {
		const sessions = await listSessions(host, state.allDirectories);
		if (sessions.length === 0 && !state.allDirectories) {
			host.notify("info", "No other sessions in this directory");
			return;
		}
		let action: PickerAction | undefined;
		const on = (next: PickerAction, needsItem: boolean) => (item: SelectItem | undefined, query: string) => {
			if (needsItem && item === undefined) return false;
			action = next;
			state.query = query;
			state.selected = item?.value;
			return true;
		};
		const scope = state.allDirectories ? "all directories" : "this directory";
		const chosen = await host.pick(
			`Resume session (${scope} · ${state.sort === "recent" ? "most recent first" : "by name"}${state.namedOnly ? " · named only" : ""})`,
			itemsOf(sessions, state),
			{
				filter: state.query,
				...(state.selected ? { selected: state.selected } : {}),
				hint: hintOf(host),
				actions: {
					"tui.input.tab": on("toggleScope", false),
					"app.session.rename": on("rename", true),
					"app.session.delete": on("delete", true),
					// The non-invasive delete key only deletes while the search text is empty.
					"app.session.deleteNoninvasive": (item, query) => query === "" && on("delete", true)(item, query),
					"app.session.toggleSort": on("toggleSort", false),
					"app.session.toggleNamedFilter": on("toggleNamed", false),
					"app.session.togglePath": on("togglePath", false),
				},
			},
		);
		if (action === undefined) {
			if (!chosen) return;
			const result = await host.runtime.switchSession(chosen.value);
			if (!result.cancelled) host.notify("success", `✓ Resumed session ${host.session.sessionId}`);
			return;
		}
		switch (action) {
			case "delete":
				if (chosen) await deleteListed(host, chosen);
				break;
			case "rename":
				if (chosen) await renameListed(host, chosen);
				break;
			case "toggleScope":
				state.allDirectories = !state.allDirectories;
				break;
			case "toggleSort":
				state.sort = state.sort === "recent" ? "name" : "recent";
				break;
			case "toggleNamed":
				state.namedOnly = !state.namedOnly;
				break;
			case "togglePath":
				state.showPath = !state.showPath;
				break;
		}
	}
}
