import { replaceControlCharacters } from "../text/ansi.js";

/**
 * A status the program reports to the terminal (working, blocked on a question, done, …) for its tab or notifications.
 */
export interface ProgramStatus {
	state: "idle" | "working" | "blocked" | "done" | "error" | "clear";
	app?: string;
	kind?: "question" | "permission" | "auth";
	message?: string;
}

/** The sequence that asks the terminal whether it supports program status reports. */
export const PROGRAM_STATUS_QUERY = "\x1b]7501;?\x1b\\";
const MAX_MESSAGE_BYTES = 2048;

function truncateUtf8(text: string, maxBytes: number): string {
	let bytes = 0;
	let out = "";
	for (const ch of text) {
		const size = Buffer.byteLength(ch, "utf8");
		if (bytes + size > maxBytes) break;
		bytes += size;
		out += ch;
	}
	return out;
}

/** OSC 7501 report of what the program is doing, for terminals that show it in tabs or docks. */
export function formatProgramStatus(status: ProgramStatus): string {
	const pairs = [`state=${status.state}`];
	if (status.app && /^[A-Za-z0-9_.+-]{1,32}$/.test(status.app)) pairs.push(`app=${status.app}`);
	if (status.kind && status.state === "blocked") pairs.push(`kind=${status.kind}`);
	if (status.message !== undefined) {
		const message = truncateUtf8(replaceControlCharacters(status.message).trim(), MAX_MESSAGE_BYTES);
		if (message) pairs.push(`msg=${Buffer.from(message, "utf8").toString("base64")}`);
	}
	return `\x1b]7501;${pairs.join(":")}\x1b\\`;
}
