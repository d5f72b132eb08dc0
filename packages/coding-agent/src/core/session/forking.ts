import { existsSync } from "node:fs";
import { SessionManager, type SessionManagerOptions } from "./manager.js";
import { contentText } from "./messages.js";

export interface ForkResult {
	/** The new session; the source manager is left as it was. */
	manager: SessionManager;
	/** For `before`: the text of the user message forked at, for the editor. */
	editorText?: string;
}

/**
 * `/fork` (`before` a user message: the new session ends at its parent) and `/clone` (`at` an entry: the
 * new session ends there). A fork at the first message gives an empty session that names its parent.
 */
export function forkSession(
	source: SessionManager,
	entryId: string,
	position: "before" | "at",
	storage: SessionManagerOptions = {},
): ForkResult {
	const entry = source.getEntry(entryId);
	let leafId: string | null = entryId;
	let editorText: string | undefined;
	if (position === "before") {
		if (entry?.type !== "message" || entry.message.role !== "user") throw new Error("Invalid entry ID for forking");
		leafId = entry.parentId;
		editorText = contentText(entry.message.content, "\n");
	} else if (!entry) {
		throw new Error(`Entry ${entryId} not found`);
	}
	const file = source.getSessionFile();
	const result = (manager: SessionManager): ForkResult =>
		editorText === undefined ? { manager } : { manager, editorText };
	if (!source.isPersisted()) {
		const copy = SessionManager.inMemory(source.getCwd(), undefined, [source.getHeader()!, ...source.getEntries()]);
		if (leafId === null) copy.newSession();
		else copy.createBranchedSession(leafId);
		return result(copy);
	}
	if (leafId === null) {
		const fresh = SessionManager.create(
			source.getCwd(),
			source.getSessionDir(),
			file ? { parentSession: file } : {},
			storage,
		);
		return result(fresh);
	}
	if (!file || !existsSync(file)) {
		throw new Error("This session has not been saved yet. Send a message before cloning or forking it.");
	}
	// A second reader on the current file; the branched session it switches to is a new, writable file.
	const copy = SessionManager.open(file, source.getSessionDir(), source.getCwd(), { ...storage, readOnly: true });
	copy.createBranchedSession(leafId);
	return result(copy);
}
