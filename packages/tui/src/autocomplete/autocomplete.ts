/** One completion candidate: the text it inserts, the label shown and an optional description. */
export interface AutocompleteItem {
	value: string;
	label: string;
	description?: string;
}

/** The completions offered at the cursor, with the text before the cursor that the chosen one replaces. */
export interface AutocompleteSuggestions {
	items: AutocompleteItem[];
	/** The text before the cursor that a completion replaces. */
	prefix: string;
}

/** The editor text and cursor position after a completion was applied. */
export interface CompletionResult {
	lines: string[];
	cursorLine: number;
	cursorCol: number;
}

/**
 * Supplies the editor's completions: suggestions for the text at the cursor, and how to apply the one the user picks.
 */
export interface AutocompleteProvider {
	triggerCharacters?: string[];
	getSuggestions(
		lines: readonly string[],
		cursorLine: number,
		cursorCol: number,
		options: { signal: AbortSignal; force?: boolean },
	): Promise<AutocompleteSuggestions | null>;
	applyCompletion(
		lines: readonly string[],
		cursorLine: number,
		cursorCol: number,
		item: AutocompleteItem,
		prefix: string,
	): CompletionResult;
	shouldTriggerFileCompletion?(lines: readonly string[], cursorLine: number, cursorCol: number): boolean;
}

/** A `/command` the editor completes: its name, description, argument hint and argument completions. */
export interface SlashCommand {
	name: string;
	description?: string;
	argumentHint?: string;
	getArgumentCompletions?(argumentPrefix: string): AutocompleteItem[] | null | Promise<AutocompleteItem[] | null>;
}

/** Whether the text before the cursor is a slash-command name being typed (first line, no space). */
export function isSlashCommandNameContext(lines: readonly string[], cursorLine: number, cursorCol: number): boolean {
	if (cursorLine !== 0) return false;
	const before = (lines[0] ?? "").slice(0, cursorCol).trimStart();
	return before.startsWith("/") && !/\s/.test(before);
}

/** Characters that may directly precede an `@` or other trigger: a token boundary. */
export function isTokenBoundary(before: string): boolean {
	if (before.length === 0) return true;
	const last = before[before.length - 1]!;
	if (/\s/.test(last)) return true;
	if (/[\u3000-\u303f\uff00-\uff0f\uff1a-\uff20]/.test(last)) return true;
	if (/[([{`"']/.test(last)) return isTokenBoundary(before.slice(0, -1));
	return false;
}
