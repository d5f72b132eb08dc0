import { expandPromptTemplate, type PromptTemplate } from "./prompt-templates/prompt-templates.js";
import { expandSkillCommand, type SkillExpansion } from "./skills/skill-prompt.js";
import type { Skill } from "./skills/skills.js";

/**
 * The resource part of turning typed text into a user message, run after extension commands and
 * the `input` event: `/skill:name` first, then a prompt template whose name matches exactly.
 */
export function expandResourceCommands(
	text: string,
	resources: { skills: readonly Skill[]; prompts: readonly PromptTemplate[] },
): SkillExpansion {
	const skill = expandSkillCommand(text, resources.skills);
	const expanded = expandPromptTemplate(skill.text, resources.prompts);
	return skill.error ? { text: expanded, error: skill.error } : { text: expanded };
}
