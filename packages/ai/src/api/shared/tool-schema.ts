import {
	makeStrictJsonSchema,
	resolveJsonSchemaStrictSampling,
	type UnsupportedKeywordCheck,
} from "../../tools/strict-schema.js";
import type { Tool } from "../../types/tools.js";

/**
 * The tool's parameters as a JSON Schema object. A schema that is not an object, or whose root is not
 * `type: "object"`, fails the request locally with a message naming the tool, instead of a provider 400.
 */
export function toolParameters(tool: Tool): Record<string, unknown> {
	const parameters: unknown = tool.parameters;
	if (parameters === null || typeof parameters !== "object" || Array.isArray(parameters)) {
		throw new Error(`Tool "${tool.name}" has invalid parameters: expected a JSON Schema object`);
	}
	const type = (parameters as { type?: unknown }).type;
	if (type !== undefined && type !== "object") {
		throw new Error(`Tool "${tool.name}" has invalid parameters: the root schema must have type "object"`);
	}
	return parameters as Record<string, unknown>;
}

/**
 * What a tool declaration carries for an API: its parameters (strict-converted when constrained
 * sampling applies, docs/design/ai-adapters.md#strict-tool-schemas) and the `strict` flag — `undefined` where the API has no strict mode.
 */
export function resolveToolSchema(
	tool: Tool,
	supportsStrict: boolean,
	isUnsupportedKeyword?: UnsupportedKeywordCheck,
): { parameters: Record<string, unknown>; strict: boolean | undefined } {
	const parameters = toolParameters(tool);
	if (resolveJsonSchemaStrictSampling(tool, supportsStrict, isUnsupportedKeyword)) {
		return { parameters: makeStrictJsonSchema(parameters, isUnsupportedKeyword), strict: true };
	}
	return { parameters, strict: supportsStrict ? false : undefined };
}
