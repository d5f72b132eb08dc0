import type { SlashCommand } from "@tau/tui";
import { appCommands } from "./app-commands.js";
import { authCommands } from "./auth-commands.js";
import { changelogCommand } from "./changelog-command.js";
import type { BuiltinCommand } from "./command-host.js";
import { modelCommands } from "./model-commands.js";
import { sessionCommands } from "./session-commands.js";
import { shareCommands } from "./share-commands.js";

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
	...modelCommands,
	...sessionCommands,
	...shareCommands,
	...authCommands,
	...appCommands,
	changelogCommand,
];

/**
 * Built-ins match only their exact text, or `/<name> <argument>` when they take an argument
 * (docs/design/interactive.md#slash-commands); everything else starting with `/` goes to the session.
 */
export function matchBuiltinCommand(text: string): { command: BuiltinCommand; argument: string } | undefined {
	if (!text.startsWith("/")) return undefined;
	for (const command of BUILTIN_COMMANDS) {
		const name = `/${command.name}`;
		if (text === name) return { command, argument: "" };
		if (command.takesArgument && text.startsWith(`${name} `))
			return { command, argument: text.slice(name.length + 1) };
	}
	return undefined;
}

/** Autocomplete entries for the built-ins. */
export function builtinSlashCommands(): SlashCommand[] {
	return BUILTIN_COMMANDS.filter((command) => !command.hidden).map((command) => ({
		name: command.name,
		description: command.description,
	}));
}
