/**
 * A Claude Pro/Max subscription request presents itself as Claude Code (docs/providers.md), tools
 * included: a tool whose name matches one of Claude Code's tools, ignoring case, travels under Claude
 * Code's spelling (`read` → `Read`), and the calls that come back are mapped to the declared name again.
 */

/** Claude Code 2.x's tool names in their own casing. */
const CLAUDE_CODE_TOOL_NAMES = [
	"AskUserQuestion",
	"Bash",
	"Edit",
	"EnterPlanMode",
	"ExitPlanMode",
	"Glob",
	"Grep",
	"KillShell",
	"NotebookEdit",
	"Read",
	"Skill",
	"Task",
	"TaskOutput",
	"TodoWrite",
	"WebFetch",
	"WebSearch",
	"Write",
];

const BY_LOWER_CASE = new Map(CLAUDE_CODE_TOOL_NAMES.map((name) => [name.toLowerCase(), name]));

/** The name a tool (or a replayed tool call) is sent under: Claude Code's spelling when it is one of its tools. */
export function toClaudeCodeName(name: string): string {
	return BY_LOWER_CASE.get(name.toLowerCase()) ?? name;
}

/**
 * The declared tool a returned call names, matched ignoring case; a name no declared tool has is
 * kept as the model sent it.
 */
export function fromClaudeCodeName(name: string, declared: readonly { name: string }[]): string {
	const lower = name.toLowerCase();
	return declared.find((tool) => tool.name.toLowerCase() === lower)?.name ?? name;
}
