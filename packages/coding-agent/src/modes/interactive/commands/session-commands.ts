import { resolve } from "node:path";
import { exportThemeOf } from "../theme/ui-theme.js";
import type { BuiltinCommand, CommandHost } from "./command-host.js";
import { resumeSession } from "./resume-session.js";
import { sessionInfoLines } from "./session-info.js";
import { navigateTree } from "./tree-navigator.js";

function oneLine(text: string, max = 80): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Removes one pair of surrounding quotes, so `/export "my file.html"` works. */
function unquote(text: string): string {
	const trimmed = text.trim();
	const match = /^(["'])(.*)\1$/.exec(trimmed);
	return match ? match[2]! : trimmed;
}

export { navigateTree, resumeSession };

export async function startNewSession(host: CommandHost): Promise<void> {
	const result = await host.runtime.newSession();
	if (!result.cancelled) host.notify("success", "✓ New session started");
}

export async function forkFromMessage(host: CommandHost): Promise<void> {
	const messages = host.session.getUserMessagesForForking();
	if (messages.length === 0) {
		host.notify("info", "No messages to fork from yet");
		return;
	}
	const chosen = await host.pick(
		"Fork from message",
		[...messages].reverse().map((message) => ({ value: message.entryId, label: oneLine(message.text) })),
	);
	if (!chosen) return;
	const result = await host.runtime.fork(chosen.value);
	if (result.cancelled) return;
	host.setEditorText(result.selectedText ?? "");
	host.notify("success", "✓ Forked to new session");
}

const newCommand: BuiltinCommand = {
	name: "new",
	description: "Start a new session",
	takesArgument: false,
	run: startNewSession,
};

const resumeCommand: BuiltinCommand = {
	name: "resume",
	description: "Resume another session",
	takesArgument: false,
	run: resumeSession,
};

const nameCommand: BuiltinCommand = {
	name: "name",
	description: "Set the session name",
	takesArgument: true,
	run(host, argument) {
		const wanted = argument.trim();
		if (wanted === "") {
			const current = host.session.sessionName;
			if (current) host.notify("info", `Session name: ${current}`);
			else host.notify("warning", "Usage: /name <name>");
			return;
		}
		host.session.setSessionName(wanted);
		const stored = host.session.sessionName ?? wanted;
		host.notify("info", `Session name set: ${stored}`);
		if (stored !== wanted) host.notify("warning", `The name was normalized to "${stored}"`);
		host.refreshFooter();
	},
};

const sessionCommand: BuiltinCommand = {
	name: "session",
	description: "Show session information",
	takesArgument: false,
	run(host) {
		host.showLines(sessionInfoLines(host.session, host.theme));
	},
};

const treeCommand: BuiltinCommand = {
	name: "tree",
	description: "Navigate the session tree",
	takesArgument: false,
	run: navigateTree,
};

const forkCommand: BuiltinCommand = {
	name: "fork",
	description: "Fork a new session from an earlier message",
	takesArgument: false,
	run: forkFromMessage,
};

const cloneCommand: BuiltinCommand = {
	name: "clone",
	description: "Copy the current branch into a new session",
	takesArgument: false,
	async run(host) {
		const leaf = host.session.sessionManager.getLeafId();
		if (leaf === null || !host.session.messages.some((message) => message.role === "user")) {
			host.notify("info", "Nothing to clone yet");
			return;
		}
		const result = await host.runtime.fork(leaf, { position: "at" });
		if (!result.cancelled) host.notify("success", "Cloned to new session");
	},
};

const compactCommand: BuiltinCommand = {
	name: "compact",
	description: "Compact the context (optional focus instructions)",
	takesArgument: true,
	async run(host, argument) {
		// Success and failure are both reported through the compaction events.
		await host.session.compact(argument.trim() || undefined).catch(() => undefined);
	},
};

const exportCommand: BuiltinCommand = {
	name: "export",
	description: "Export the session (HTML, or JSONL for a .jsonl path)",
	takesArgument: true,
	async run(host, argument) {
		const requested = unquote(argument) || undefined;
		try {
			const path = requested?.toLowerCase().endsWith(".jsonl")
				? host.session.exportToJsonl(requested)
				: await host.session.exportToHtml(requested, { theme: exportThemeOf(host.theme) });
			host.notify("info", `Session exported to: ${path}`);
		} catch (error) {
			host.notify("error", `Export failed: ${(error as Error).message}`);
		}
	},
};

const importCommand: BuiltinCommand = {
	name: "import",
	description: "Import a JSONL session file and switch to it",
	takesArgument: true,
	async run(host, argument) {
		const path = unquote(argument);
		if (path === "") {
			host.notify("warning", "Usage: /import <path>");
			return;
		}
		try {
			const result = await host.runtime.importFromJsonl(resolve(host.session.cwd, path));
			if (!result.cancelled) host.notify("success", `✓ Imported session ${host.session.sessionId}`);
		} catch (error) {
			host.notify("error", (error as Error).message);
		}
	},
};

const copyCommand: BuiltinCommand = {
	name: "copy",
	description: "Copy the last agent message to the clipboard",
	takesArgument: false,
	run(host) {
		const text = host.session.getLastAssistantText();
		if (!text) {
			host.notify("info", "No agent messages to copy yet.");
			return;
		}
		host.copyToClipboard(text);
		host.notify("info", "Copied last agent message to clipboard");
	},
};

export const sessionCommands: readonly BuiltinCommand[] = [
	newCommand,
	resumeCommand,
	nameCommand,
	sessionCommand,
	treeCommand,
	forkCommand,
	cloneCommand,
	compactCommand,
	importCommand,
	exportCommand,
	copyCommand,
];
