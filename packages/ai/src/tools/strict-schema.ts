import type { TUnsafe } from "typebox";
import type { Tool } from "../types/tools.js";
import { errorMessage } from "../utils/error-message.js";

/** Decides whether a provider rejects `keyword` with `value` in strict schemas. */
export type UnsupportedKeywordCheck = (keyword: string, value: unknown) => boolean;

/** Raised when a schema cannot be expressed in strict mode; the message completes "..., but <message>". */
export class StrictSchemaUnsupportedError extends Error {
	override readonly name = "StrictSchemaUnsupportedError";
}

const FORBIDDEN_KEYWORDS = [
	"$ref",
	"$defs",
	"definitions",
	"allOf",
	"oneOf",
	"patternProperties",
	"dependentSchemas",
	"dependencies",
	"unevaluatedProperties",
	"propertyNames",
	"contains",
	"prefixItems",
	"not",
	"if",
	"then",
	"else",
];

type SchemaNode = Record<string, unknown>;

function unsupported(reason: string, path: string): never {
	throw new StrictSchemaUnsupportedError(`the schema ${reason} at ${path}`);
}

function typesOf(node: SchemaNode): string[] {
	const type = node.type;
	if (typeof type === "string") return [type];
	return Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : [];
}

function allowsNull(node: unknown): boolean {
	if (typeof node !== "object" || node === null) return false;
	const schema = node as SchemaNode;
	if (typesOf(schema).includes("null")) return true;
	if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
	if (schema.const === null) return true;
	return Array.isArray(schema.anyOf) && schema.anyOf.some(allowsNull);
}

function convert(node: unknown, path: string, isUnsupported: UnsupportedKeywordCheck | undefined): SchemaNode {
	if (typeof node === "boolean") unsupported("uses a boolean schema", path);
	if (typeof node !== "object" || node === null || Array.isArray(node)) unsupported("has a non-object schema", path);
	const schema = { ...(node as SchemaNode) };
	for (const keyword of FORBIDDEN_KEYWORDS) {
		if (keyword in schema) unsupported(`uses unsupported keyword "${keyword}"`, path);
	}
	for (const [keyword, value] of Object.entries(schema)) {
		if (isUnsupported?.(keyword, value))
			unsupported(`uses keyword "${keyword}", which the provider rejects in strict mode`, path);
	}
	const types = typesOf(schema);
	if (types.length === 0 && !("anyOf" in schema) && !("enum" in schema)) {
		unsupported('has a node without "type", "anyOf" or "enum"', path);
	}
	if ("anyOf" in schema) {
		const branches = schema.anyOf;
		if (!Array.isArray(branches) || branches.length === 0) unsupported('has an empty "anyOf"', path);
		schema.anyOf = branches.map((branch, index) => {
			const branchTypes = typeof branch === "object" && branch !== null ? typesOf(branch as SchemaNode) : [];
			if (branchTypes.includes("object") || branchTypes.includes("array")) {
				unsupported('has object or array schemas inside "anyOf"', `${path}.anyOf.${index}`);
			}
			return convert(branch, `${path}.anyOf.${index}`, isUnsupported);
		});
	}
	if ("items" in schema) {
		if (Array.isArray(schema.items)) unsupported("uses tuple items", path);
		schema.items = convert(schema.items, `${path}.items`, isUnsupported);
	}
	if ("properties" in schema && !types.includes("object")) unsupported('has "properties" without type "object"', path);
	if ("additionalProperties" in schema && schema.additionalProperties !== false) {
		unsupported('allows "additionalProperties"', path);
	}
	if (types.includes("object")) convertObject(schema, path, isUnsupported);
	return schema;
}

/** Every property becomes required; formerly optional ones become nullable; no extra properties. */
function convertObject(schema: SchemaNode, path: string, isUnsupported: UnsupportedKeywordCheck | undefined): void {
	const properties = (schema.properties ?? {}) as Record<string, unknown>;
	if (typeof properties !== "object" || Array.isArray(properties)) unsupported('has invalid "properties"', path);
	const required = schema.required ?? [];
	if (
		!Array.isArray(required) ||
		required.some((name) => typeof name !== "string" || !Object.hasOwn(properties, name))
	) {
		unsupported('has an invalid "required" list', path);
	}
	const converted: Record<string, unknown> = {};
	for (const [name, property] of Object.entries(properties)) {
		const strict = convert(property, `${path}.properties.${name}`, isUnsupported);
		converted[name] = required.includes(name) || allowsNull(strict) ? strict : { anyOf: [strict, { type: "null" }] };
	}
	schema.properties = converted;
	schema.required = Object.keys(converted);
	schema.additionalProperties = false;
}

/** A deep copy of `schema` in the form strict/constrained sampling accepts; throws when impossible. */
export function makeStrictJsonSchema(
	schema: unknown,
	isUnsupportedKeyword?: UnsupportedKeywordCheck,
): Record<string, unknown> {
	const copy = structuredClone(schema);
	if (typeof copy !== "object" || copy === null || typesOf(copy as SchemaNode)[0] !== "object") {
		unsupported('does not have type "object" at the root', "root");
	}
	return convert(copy, "root", isUnsupportedKeyword);
}

/**
 * Whether a tool is sent in strict mode: `true`, or `undefined` for a normal tool. A tool that requires
 * constrained sampling but cannot get it fails the request.
 */
export function resolveJsonSchemaStrictSampling(
	tool: Tool,
	supportsStrictMode: boolean | undefined,
	isUnsupportedKeyword?: UnsupportedKeywordCheck,
): true | undefined {
	const config = tool.constrainedSampling || undefined;
	if (config?.type !== "json_schema") return undefined;
	const fail = (reason: string): never => {
		throw new Error(`Tool "${tool.name}" requires JSON-schema constrained sampling, but ${reason}.`);
	};
	if (!supportsStrictMode) return config.strict === "require" ? fail("strict tools are unsupported") : undefined;
	try {
		makeStrictJsonSchema(tool.parameters, isUnsupportedKeyword);
		return true;
	} catch (error) {
		if (config.strict === "require") fail(errorMessage(error));
		return undefined;
	}
}

/**
 * A string enum in the one form every provider accepts. Typed as TypeBox's unsafe schema of the literal
 * union, so `Static` of a `Type.Object` holding it gives `"a" | "b"` (as pi-ai's does); at run time it
 * is the plain JSON schema, so TypeBox is not loaded for it.
 */
export function StringEnum<const T extends readonly string[]>(
	values: T,
	options: { description?: string; default?: T[number] } = {},
): TUnsafe<T[number]> & { type: "string"; enum: T[number][]; description?: string; default?: T[number] } {
	const schema: { type: "string"; enum: T[number][]; description?: string; default?: T[number] } = {
		type: "string",
		enum: [...values],
	};
	if (options.description !== undefined) schema.description = options.description;
	if (options.default !== undefined) schema.default = options.default;
	return schema as TUnsafe<T[number]> & typeof schema;
}
