import { hostname } from "node:os";
import type { SelectItem } from "@tau/tui";
import type { AgentSession } from "../../../core/agent-session/agent-session.js";
import type { SessionLockHolder } from "../../../core/session/index.js";
import type { AgentSessionRuntime } from "../../../sdk/agent-session-runtime.js";
import type { NoticeKind } from "../components/chat-notice.js";

/** What the choice needs from the interactive mode. */
export interface LockedSessionHost {
	readonly session: AgentSession;
	readonly runtime: AgentSessionRuntime;
	pick(title: string, items: SelectItem[]): Promise<SelectItem | undefined>;
	notify(kind: NoticeKind, message: string): void;
	quit(): Promise<void>;
}

function holderText(holder: SessionLockHolder): string {
	if (holder.pid === undefined) return "another process";
	const host = holder.hostname && holder.hostname !== hostname() ? ` on ${holder.hostname}` : "";
	return `process ${holder.pid}${host}`;
}

/**
 * A session file held by another process (docs/sessions.md): one dialog names the holder and
 * offers reading it, continuing in a copy, or quitting. Nothing starts a run meanwhile, and the
 * editor keeps what was typed. Other read-only causes (a failed migration) only explain themselves.
 */
export async function chooseForReadOnlySession(host: LockedSessionHost): Promise<void> {
	const manager = host.session.sessionManager;
	const holder = manager.getLockHolder();
	if (!holder) {
		const reason = manager.getReadOnlyReason();
		if (reason) host.notify("warning", `${reason}: nothing can be added to it`);
		return;
	}
	const title = `This session is open in ${holderText(holder)}: a second writer would corrupt it`;
	const choice = await host.pick(title, [
		{ value: "read-only", label: "Open read-only", description: "read it here; nothing can be sent or saved" },
		{ value: "fork", label: "Fork into a new session", description: "continue in a copy of this conversation" },
		{ value: "quit", label: "Quit" },
	]);
	if (choice?.value === "quit") await host.quit();
	else if (choice?.value === "fork") {
		const leaf = manager.getLeafId();
		if (leaf === null) await host.runtime.newSession();
		else await host.runtime.fork(leaf, { position: "at" });
		host.notify("info", `Continuing in a new session: ${host.session.sessionFile ?? "not saved yet"}`);
	}
}
