import type { KeybindingsManager } from "@tau/tui";
import type { AgentSession } from "../../../core/agent-session/agent-session.js";
import { boundKey } from "../keybindings/app-keybindings.js";

/** `/home/u/x` → `~/x`, the way paths are shown to the user. */
function displayPath(path: string, home: string): string {
	return home && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path;
}

function section(title: string, items: readonly string[]): string[] {
	return items.length === 0 ? [] : [`${title}:`, ...items.map((item) => `  ${item}`)];
}

/**
 * The startup details of the expanded header (docs/design/interactive.md#startup): the model scope line
 * and what was loaded — context files, extensions, skills, prompt templates and themes from files.
 */
export function startupDetails(session: AgentSession, keys: KeybindingsManager, home: string): string[] {
	const loader = session.resourceLoader;
	const lines: string[] = [];
	const scope = session.scopedModels;
	if (scope.length > 0) {
		const ids = scope.map((entry) =>
			entry.thinkingLevel ? `${entry.model.id}:${entry.thinkingLevel}` : entry.model.id,
		);
		const cycle = boundKey(keys, "app.model.cycleForward");
		lines.push(`Model scope: ${ids.join(", ")}${cycle ? ` (${cycle} to cycle)` : ""}`);
	}
	const path = (p: string) => displayPath(p, home);
	lines.push(
		...section(
			"Context files",
			loader.getAgentsFiles().agentsFiles.map((file) => path(file.path)),
		),
		...section(
			"Extensions",
			loader
				.getExtensions()
				.extensions.filter((extension) => !extension.hidden)
				.map((extension) => path(extension.path)),
		),
		...section(
			"Skills",
			loader.getSkills().skills.map((skill) => `${skill.name}  ${path(skill.filePath)}`),
		),
		...section(
			"Prompt templates",
			loader.getPrompts().prompts.map((prompt) => `/${prompt.name}  ${path(prompt.filePath)}`),
		),
		...section(
			"Themes",
			loader
				.getThemes()
				.themes.flatMap((theme) => (theme.sourceInfo ? [`${theme.name}  ${path(theme.sourceInfo.path)}`] : [])),
		),
	);
	return lines;
}
