import { type AutocompleteProvider, CombinedAutocompleteProvider, type SlashCommand } from "@tau/tui";
import type { AgentSession } from "../../../core/agent-session/agent-session.js";
import { builtinSlashCommands } from "../commands/builtin-commands.js";

/** Built-ins, extension commands, prompt templates and `/skill:<name>`, in that order. */
export function slashCommandsOf(session: AgentSession): SlashCommand[] {
	const extension = session.extensionRunner.getCommands().map(
		(command): SlashCommand => ({
			name: command.invocationName,
			...(command.options.description ? { description: command.options.description } : {}),
		}),
	);
	const templates = session.resourceLoader.getPrompts().prompts.map(
		(template): SlashCommand => ({
			name: template.name,
			...(template.description ? { description: template.description } : {}),
		}),
	);
	const skills = session.settingsManager.getEnableSkillCommands()
		? session.resourceLoader.getSkills().skills.map(
				(skill): SlashCommand => ({
					name: `skill:${skill.name}`,
					...(skill.description ? { description: skill.description } : {}),
				}),
			)
		: [];
	return [...builtinSlashCommands(), ...extension, ...templates, ...skills];
}

/**
 * The editor's completion: slash commands, `@` file references and Tab paths under the session cwd;
 * extensions may wrap it (`ctx.ui.addAutocompleteProvider`).
 */
export function createAutocomplete(
	session: AgentSession,
	wrappers: readonly ((current: AutocompleteProvider) => AutocompleteProvider)[],
	fdPath: string | undefined,
): AutocompleteProvider {
	let provider: AutocompleteProvider = new CombinedAutocompleteProvider(slashCommandsOf(session), session.cwd, fdPath);
	for (const wrap of wrappers) provider = wrap(provider);
	return provider;
}
