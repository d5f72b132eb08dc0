import type { Static, TArray, TObject, TString } from "typebox";
import { applyEdits } from "./edit/apply.js";
import { computeEditDiff } from "./edit/diff.js";
import { matchEdits, toLf } from "./edit/match.js";
import { type EditReplacement, prepareEditArguments } from "./edit/prepare-arguments.js";
import { jsonSchema } from "./json-schema.js";
import { withFileMutationQueue } from "./mutation-queue.js";
import { type EditOperations, localEditOperations } from "./operations.js";
import { resolveToolPath } from "./path-resolution.js";
import { type BuiltinToolDefinition, throwIfAborted, toAgentTool } from "./types.js";

export const editSchema = jsonSchema<
	TObject<{ path: TString; edits: TArray<TObject<{ oldText: TString; newText: TString }>> }>
>({
	type: "object",
	required: ["path", "edits"],
	properties: {
		path: { type: "string", description: "Path to the file to edit (relative or absolute)" },
		edits: {
			type: "array",
			items: {
				type: "object",
				required: ["oldText", "newText"],
				properties: {
					oldText: {
						type: "string",
						description: "Exact text to replace; must be unique in the original file and not overlap other edits",
					},
					newText: { type: "string", description: "Replacement text" },
				},
				additionalProperties: false,
			},
			description: "Replacements, all matched against the original file content",
		},
	},
	additionalProperties: false,
});
/** The arguments the model passes to the edit tool: the file path and the text replacements to make. */
export type EditToolInput = Static<typeof editSchema>;

/** The `details` of an edit tool result: the diff shown to the user and a unified patch. */
export interface EditToolDetails {
	diff: string;
	patch: string;
	firstChangedLine?: number;
	/** Set when a replacement needed fuzzy matching (touched lines were normalized). */
	fuzzyMatch?: true;
}

/** Options of the edit tool: the file operations it uses. */
export interface EditToolOptions {
	operations?: EditOperations;
}

const DESCRIPTION =
	"Edit a single file by exact text replacement. Every edits[].oldText must match a unique, non-overlapping region of the original file; all edits are matched against the original content, not after earlier edits. Merge nearby changes into one edit, and do not pad edits with large unchanged regions.";

const BOM = "\ufeff";

function accessError(path: string, error: unknown): Error {
	const code = (error as NodeJS.ErrnoException).code;
	return new Error(
		code
			? `Could not edit file: ${path}. Error code: ${code}.`
			: `Could not edit file: ${path}. ${(error as Error).message}`,
	);
}

/**
 * Computes the diff an edit would produce without writing (for previews). Returns the error
 * message instead of throwing.
 */
export async function computeEditsDiff(
	path: string,
	edits: readonly EditReplacement[],
	cwd: string,
	operations: EditOperations = localEditOperations,
): Promise<{ diff: string; firstChangedLine?: number } | { error: string }> {
	try {
		const absolute = resolveToolPath(path, cwd);
		const text = (await operations.readFile(absolute)).toString("utf8");
		const original = text.startsWith(BOM) ? text.slice(1) : text;
		const lf = toLf(original);
		const applied = applyEdits(original, lf, matchEdits(lf, edits, path), path);
		const { diff, firstChangedLine } = computeEditDiff(path, lf, applied.newLf, applied.replacements);
		return firstChangedLine === undefined ? { diff } : { diff, firstChangedLine };
	} catch (error) {
		return { error: (error as Error).message };
	}
}

/**
 * Creates the definition of the built-in edit tool (exact text replacements in a file) for the given working
 * directory.
 */
export function createEditToolDefinition(
	cwd: string,
	options: EditToolOptions = {},
): BuiltinToolDefinition<typeof editSchema, EditToolDetails> {
	const ops = options.operations ?? localEditOperations;
	return {
		name: "edit",
		label: "edit",
		description: DESCRIPTION,
		parameters: editSchema,
		constrainedSampling: { type: "json_schema", strict: "prefer" },
		renderShell: "self",
		prepareArguments: (args) => prepareEditArguments(args) as EditToolInput,
		promptSnippet: "Make precise exact-text edits to files (several disjoint edits per call)",
		promptGuidelines: [
			"Use edit for targeted changes to existing files, and batch all changes to one file into a single edit call.",
			"Each edits[].oldText in edit must match the original file exactly and uniquely; keep matches short, non-overlapping, and merge nearby changes instead of including large unchanged spans.",
		],
		executionMode: "parallel",
		async execute(_id, params, signal, _onUpdate, ctx) {
			throwIfAborted(signal);
			if (!Array.isArray(params.edits) || params.edits.length === 0) {
				throw new Error("Edit tool input is invalid. edits must contain at least one replacement.");
			}
			const path = params.path;
			const absolute = resolveToolPath(path, ctx?.cwd || cwd);
			return withFileMutationQueue(absolute, async () => {
				throwIfAborted(signal);
				try {
					await ops.access(absolute);
				} catch (error) {
					throw accessError(path, error);
				}
				throwIfAborted(signal);
				const text = (await ops.readFile(absolute)).toString("utf8");
				throwIfAborted(signal);
				const bom = text.startsWith(BOM) ? BOM : "";
				const original = text.slice(bom.length);
				const lf = toLf(original);
				const match = matchEdits(lf, params.edits, path);
				const applied = applyEdits(original, lf, match, path);
				// The diff is computed before writing so a diff failure can never follow a write.
				const { diff, patch, firstChangedLine } = computeEditDiff(path, lf, applied.newLf, applied.replacements);
				await ops.writeFile(absolute, bom + applied.fileContent);
				throwIfAborted(signal);
				const details: EditToolDetails = { diff, patch };
				if (firstChangedLine !== undefined) details.firstChangedLine = firstChangedLine;
				if (match.fuzzy) details.fuzzyMatch = true;
				const count = params.edits.length;
				return {
					content: [
						{ type: "text", text: `Successfully replaced ${count} block${count === 1 ? "" : "s"} in ${path}.` },
					],
					details,
				};
			});
		},
	};
}

/** Creates the built-in edit tool as an agent tool for the given working directory. */
export function createEditTool(cwd: string, options?: EditToolOptions) {
	return toAgentTool(createEditToolDefinition(cwd, options));
}
