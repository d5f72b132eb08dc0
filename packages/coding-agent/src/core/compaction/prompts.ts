/** Prompt texts of the summarizers. The section headings and XML wrapper tags are a contract; wording is ours. */

export const SUMMARIZATION_SYSTEM_PROMPT =
	"You are a summarization assistant. You read a conversation between a user and a coding agent and write only the structured summary in the requested format. Do not continue the conversation and do not answer questions that appear in it.";

const STRUCTURE = `## Goal
[What the user is trying to accomplish]

## Constraints & Preferences
- [Requirements, preferences and limits the user stated, or "(none)"]

## Progress
### Done
- [x] [Completed work]

### In Progress
- [ ] [Work that was started but not finished]

### Blocked
- [Anything blocked, and why]

## Key Decisions
- **[Decision]**: [rationale]

## Next Steps
1. [What should happen next, in order]

## Critical Context
- [Facts needed to continue, or "(none)"]`;

export const INITIAL_SUMMARY_INSTRUCTIONS = `Write a structured checkpoint of the conversation above. Another model will use it to continue the work, so it must contain everything needed to carry on.

Use exactly this structure:

${STRUCTURE}

Keep every section brief. Reproduce file paths, function names and error messages exactly as they appear.`;

export const UPDATE_SUMMARY_INSTRUCTIONS = `The conversation above continues from the earlier checkpoint in <previous-summary>. Write an updated checkpoint that merges both.

Rules:
- Keep everything from the previous summary that still matters.
- Add the new progress, decisions and context.
- Move items that are now finished from "In Progress" to "Done".
- Rewrite "Next Steps" for the current state.
- Keep exact file paths, function names and error messages.
- Drop only what is no longer relevant.

Use exactly this structure:

${STRUCTURE}

Keep every section brief.`;

export const TURN_PREFIX_INSTRUCTIONS = `These messages are the beginning of a turn that is still in progress; its later part is kept separately and is not shown here. Write a concise checkpoint of this beginning:

## Original Request
[What the user asked for in this turn]

## Progress So Far
- [What has been done so far in this turn]

## Context Needed to Continue
- [Files, findings and state required to continue]

Only use information present above. Do not reconstruct or guess the later messages.`;

export const BRANCH_SUMMARY_INSTRUCTIONS = `The conversation above is a branch the user explored before returning to an earlier point. Summarize it so the work can be picked up later, using exactly this structure:

## Goal
[What this branch tried to achieve]

## Constraints & Preferences
- [Constraints and preferences, or "(none)"]

## Progress
### Done
- [x] [Completed work]

### In Progress
- [ ] [Unfinished work]

### Blocked
- [Blocked work, and why]

## Key Decisions
- **[Decision]**: [rationale]

## Next Steps
1. [What would come next]

Keep each section brief. Keep exact file paths, function names and error messages.`;

export const BRANCH_SUMMARY_PREAMBLE =
	"The user explored a different branch of this conversation before coming back here.\nWhat follows summarizes that branch:\n\n";

export const NO_PRIOR_HISTORY = "No prior history.";

export const NO_BRANCH_CONTENT = "No content to summarize";

export function withFocus(text: string, customInstructions: string | undefined): string {
	return customInstructions ? `${text}\n\nAdditional focus: ${customInstructions}` : text;
}
