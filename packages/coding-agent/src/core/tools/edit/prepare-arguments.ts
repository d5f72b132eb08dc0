/** One replacement of the `edit` tool. */
export interface EditReplacement {
	oldText: string;
	newText: string;
}

function isReplacement(value: unknown): value is EditReplacement {
	return (
		typeof value === "object" &&
		value !== null &&
		typeof (value as EditReplacement).oldText === "string" &&
		typeof (value as EditReplacement).newText === "string"
	);
}

/**
 * Compatibility shim run before validation: accepts `edits` as a JSON string or a single object,
 * and the legacy top-level `oldText`/`newText` pair (docs/design/tools.md#edit). Anything else is left for
 * validation to reject.
 */
export function prepareEditArguments(args: unknown): unknown {
	if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
	const prepared: Record<string, unknown> = { ...(args as Record<string, unknown>) };
	if (typeof prepared.edits === "string") {
		try {
			const parsed: unknown = JSON.parse(prepared.edits);
			if (Array.isArray(parsed)) prepared.edits = parsed;
			else if (isReplacement(parsed)) prepared.edits = [parsed];
		} catch {
			// Left as a string: validation reports it.
		}
	}
	if (isReplacement(prepared.edits)) prepared.edits = [prepared.edits];
	if (typeof prepared.oldText === "string" && typeof prepared.newText === "string") {
		const edits = Array.isArray(prepared.edits) ? [...prepared.edits] : [];
		edits.push({ oldText: prepared.oldText, newText: prepared.newText });
		prepared.edits = edits;
		delete prepared.oldText;
		delete prepared.newText;
	}
	return prepared;
}
