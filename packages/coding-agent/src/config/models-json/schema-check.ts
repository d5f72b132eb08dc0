/**
 * A yes/no check of a value against the JSON Schema keywords the models.json schema uses. The
 * schema objects are plain JSON Schema, so a valid file (the usual case) is accepted without
 * loading a schema engine at startup; the engine is only needed to describe what is wrong.
 */
export interface JsonSchemaNode {
	type?: string;
	properties?: Record<string, JsonSchemaNode>;
	required?: readonly string[];
	patternProperties?: Record<string, JsonSchemaNode>;
	additionalProperties?: boolean;
	items?: JsonSchemaNode;
	anyOf?: readonly JsonSchemaNode[];
	enum?: readonly unknown[];
	const?: unknown;
	minLength?: number;
	minimum?: number;
	maximum?: number;
	exclusiveMinimum?: number;
}

const patterns = new Map<string, RegExp>();
function pattern(source: string): RegExp {
	let compiled = patterns.get(source);
	if (!compiled) {
		compiled = new RegExp(source, "u");
		patterns.set(source, compiled);
	}
	return compiled;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasType(type: string, value: unknown): boolean {
	switch (type) {
		case "object":
			return isPlainObject(value);
		case "array":
			return Array.isArray(value);
		case "string":
			return typeof value === "string";
		case "boolean":
			return typeof value === "boolean";
		case "null":
			return value === null;
		case "number":
			return typeof value === "number" && Number.isFinite(value);
		case "integer":
			return Number.isInteger(value);
		default:
			return false;
	}
}

function matchesObject(schema: JsonSchemaNode, value: Record<string, unknown>): boolean {
	if (schema.required?.some((key) => !Object.hasOwn(value, key))) return false;
	for (const [key, child] of Object.entries(value)) {
		let evaluated = false;
		const property = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
		if (property) {
			evaluated = true;
			if (!matchesSchema(property, child)) return false;
		}
		for (const [source, patternSchema] of Object.entries(schema.patternProperties ?? {})) {
			if (!pattern(source).test(key)) continue;
			evaluated = true;
			if (!matchesSchema(patternSchema, child)) return false;
		}
		if (!evaluated && schema.additionalProperties === false) return false;
	}
	return true;
}

export function matchesSchema(schema: JsonSchemaNode, value: unknown): boolean {
	if (schema.type !== undefined && !hasType(schema.type, value)) return false;
	if (schema.anyOf && !schema.anyOf.some((branch) => matchesSchema(branch, value))) return false;
	if (schema.enum && !schema.enum.includes(value)) return false;
	if ("const" in schema && value !== schema.const) return false;
	if (typeof value === "string" && schema.minLength !== undefined && [...value].length < schema.minLength) {
		return false;
	}
	if (typeof value === "number") {
		if (schema.minimum !== undefined && value < schema.minimum) return false;
		if (schema.maximum !== undefined && value > schema.maximum) return false;
		if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return false;
	}
	const { items } = schema;
	if (Array.isArray(value) && items && !value.every((item) => matchesSchema(items, item))) return false;
	if (isPlainObject(value) && !matchesObject(schema, value)) return false;
	return true;
}
