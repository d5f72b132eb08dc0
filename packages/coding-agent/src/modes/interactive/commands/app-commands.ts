import { dirname, join } from "node:path";
import { visibleWidth } from "@tau/tui";
import {
	applyTrustChoice,
	ProjectTrustStore,
	type TrustPromptChoice,
	trustPromptOptions,
} from "../../../config/index.js";
import { writeFileAtomicSync } from "../../../core/fs/atomic-write.js";
import { BorderedNotice } from "../components/bordered-notice.js";
import { formatKeyId } from "../keybindings/app-keybindings.js";
import type { BuiltinCommand } from "./command-host.js";

const reloadCommand: BuiltinCommand = {
	name: "reload",
	description: "Reload keybindings, extensions, skills, prompts, themes and context files",
	takesArgument: false,
	async run(host) {
		if (host.session.isStreaming) {
			host.notify("warning", "Wait for the current response to finish before reloading.");
			return;
		}
		if (host.session.isCompacting) {
			host.notify("warning", "Wait for compaction to finish before reloading.");
			return;
		}
		const close = host.showInPlaceOfEditor(
			new BorderedNotice(
				host.theme,
				"Reloading keybindings, extensions, skills, prompts, themes and context files…",
			),
		);
		try {
			await host.reload();
		} finally {
			close();
		}
	},
};

const hotkeysCommand: BuiltinCommand = {
	name: "hotkeys",
	description: "Show the active key bindings",
	takesArgument: false,
	run(host) {
		const bindings = host.keys.getResolvedBindings();
		const rows = Object.entries(bindings)
			.map(([action, keys]) => {
				const list = (Array.isArray(keys) ? keys : [keys]).map(formatKeyId);
				const description = host.keys.getDefinition(action)?.description ?? "";
				return { action, keys: list.join(", "), description };
			})
			.filter((row) => row.keys !== "");
		const width = Math.max(...rows.map((row) => row.keys.length));
		const lines = [
			host.theme.bold("Key bindings"),
			...rows.map(
				(row) =>
					`${host.theme.fg("accent", row.keys.padEnd(width))}  ${row.description} ${host.theme.fg("dim", `(${row.action})`)}`,
			),
		];
		const problem = host.keybindingProblem();
		if (problem) lines.push(host.theme.fg("warning", problem));
		for (const conflict of host.keys.getConflicts()) {
			lines.push(host.theme.fg("warning", `Key ${conflict.key} is bound to ${conflict.keybindings.join(", ")}`));
		}
		host.showLines(lines);
	},
};

const settingsCommand: BuiltinCommand = {
	name: "settings",
	description: "Change settings",
	takesArgument: false,
	run: (host) => host.openSettings(),
};

const quitCommand: BuiltinCommand = {
	name: "quit",
	description: "Quit",
	takesArgument: false,
	run: (host) => host.quit(),
};

/**
 * Saves a trust decision for this project for future processes (docs/design/cli.md#project-trust-at-startup) with the startup
 * prompt's saving options (docs/design/resources.md#trust-decision-order), plus forgetting the saved decision.
 */
const trustCommand: BuiltinCommand = {
	name: "trust",
	description: "Save a project-trust decision",
	takesArgument: false,
	async run(host) {
		const store = new ProjectTrustStore(host.agentDir);
		const cwd = store.canonical(host.session.cwd);
		const current = store.get(cwd);
		const state = current ? (current.decision ? "trusted" : "not trusted") : "undecided";
		const parent = dirname(cwd) === cwd ? undefined : dirname(cwd);
		const saving = trustPromptOptions(parent).filter((option) => !option.choice.endsWith("-session"));
		const chosen = await host.pick(`Project trust for ${cwd} (now ${state})`, [
			...saving.map((option) => ({ value: option.choice, label: option.label })),
			{ value: "forget", label: "Forget the decision (ask again)" },
		]);
		if (!chosen) return;
		const saved =
			chosen.value === "forget"
				? store.trySetMany([{ path: cwd, decision: null }])
				: applyTrustChoice(store, cwd, chosen.value as TrustPromptChoice).saved;
		if (!saved) {
			host.notify("error", `Could not save the trust decision: ${store.drainDiagnostics().join("; ")}`);
			return;
		}
		const what = chosen.value === "forget" ? "Trust decision forgotten" : `Saved: ${chosen.label}`;
		host.notify("success", `✓ ${what}; takes effect in new ${host.appName} processes (or /reload)`);
	},
};

/** Rendered lines with their visible widths, then the session messages as JSONL. */
export const debugCommand: BuiltinCommand = {
	name: "debug",
	description: "Write a debug log",
	takesArgument: false,
	hidden: true,
	run(host) {
		const lines = host
			.renderedLines()
			.map((line, index) => `${index}\t${visibleWidth(line)}\t${JSON.stringify(line)}`);
		const messages = host.session.messages.map((message) => JSON.stringify(message));
		const path = join(host.agentDir, `${host.appName}-debug.log`);
		// The messages may hold anything the session does: private like the session file.
		writeFileAtomicSync(
			path,
			["# rendered lines (index, width, text)", ...lines, "# session messages", ...messages, ""].join("\n"),
			{ newFileMode: 0o600 },
		);
		host.notify("success", "✓ Debug log written");
	},
};

export const appCommands: readonly BuiltinCommand[] = [
	reloadCommand,
	hotkeysCommand,
	settingsCommand,
	trustCommand,
	quitCommand,
	debugCommand,
];
