import type { ToolCall } from "../types/content.js";
import type { Tool } from "../types/tools.js";
import { coerceToSchema } from "./coerce.js";
import { explainSchemaErrors } from "./explain-errors.js";
import { type SchemaNode, schemaAccepts } from "./schema-check.js";

/** `/edits/0/oldText` → `edits.0.oldText`; the empty pointer is `root`. */
function dottedPath(pointer: string): string {
	if (pointer === "" || pointer === "/") return "root";
	return pointer
		.split("/")
		.slice(1)
		.map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
		.join(".");
}

/**
 * Validates a call's arguments against the tool's schema after coercion and returns the coerced copy.
 * Throws an Error whose message the model can act on. The transcript's arguments are never mutated.
 */
export function validateToolArguments(tool: Tool, call: ToolCall): any {
	if (call.argumentsError) throw new Error(`Invalid arguments for tool "${call.name}": ${call.argumentsError}`);
	const original = call.arguments;
	const coerced = coerceToSchema(structuredClone(original), tool.parameters);
	const schema = tool.parameters as object;
	if (schemaAccepts(schema, coerced)) return coerced;
	const lines = explainSchemaErrors(schema as SchemaNode, coerced).map(
		(problem) => `  - ${dottedPath(problem.path)}: ${problem.message}`,
	);
	throw new Error(
		`Validation failed for tool "${call.name}":\n${lines.join("\n")}\n\nReceived arguments:\n${JSON.stringify(original, null, 2)}`,
	);
}

/** Finds the tool by name, then validates (see `validateToolArguments`). */
export function validateToolCall(tools: readonly Tool[], call: ToolCall): any {
	const tool = tools.find((candidate) => candidate.name === call.name);
	if (!tool) throw new Error(`Tool "${call.name}" not found`);
	return validateToolArguments(tool, call);
}
