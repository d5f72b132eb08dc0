/*
 * The JSON Schema subset every built-in tool declares (types, properties, required, additional properties,
 * items, enums, numeric and item-count bounds), checked directly. Loading and compiling TypeBox for such a
 * schema cost more CPU than the rest of a tool turn; a schema that uses any other keyword goes to TypeBox
 * (docs/design/tools.md#argument-validation).
 */

/** A JSON Schema object (what `schema-check.ts` calls `SchemaNode`; imported from there it would be a cycle). */
type SchemaNode = Record<string, unknown>;

/** Keywords that only annotate: they never change what a schema accepts. */
const ANNOTATIONS = new Set([
	"description",
	"title",
	"default",
	"examples",
	"$comment",
	"$schema",
	"deprecated",
	"readOnly",
	"writeOnly",
	// Only `$ref`, which is outside the subset, reads definitions.
	"$defs",
	"definitions",
]);

/** A JSON object: not `null`, not an array (any other object counts, as in TypeBox). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Each JSON Schema type as TypeBox checks it: numbers are finite, integers whole. */
export const JSON_TYPE_CHECKS: Readonly<Record<string, (value: unknown) => boolean>> = {
	string: (value) => typeof value === "string",
	number: (value) => Number.isFinite(value),
	integer: (value) => Number.isInteger(value),
	boolean: (value) => typeof value === "boolean",
	null: (value) => value === null,
	array: Array.isArray,
	object: isPlainObject,
};

const isType = (type: unknown) => typeof type === "string" && Object.hasOwn(JSON_TYPE_CHECKS, type);

const isPrimitive = (value: unknown) =>
	value === null || typeof value === "string" || typeof value === "boolean" || Number.isFinite(value);

/** Whether one keyword of the subset has a value it understands; `schema` keywords recurse. */
function plainKeyword(key: string, value: unknown): boolean {
	switch (key) {
		case "type":
			return isType(value) || (Array.isArray(value) && value.every(isType));
		case "properties":
			return (
				isPlainObject(value) && Object.values(value).every((member) => member === true || isPlainSchema(member))
			);
		case "required":
			return Array.isArray(value) && value.every((name) => typeof name === "string");
		case "additionalProperties":
			return typeof value === "boolean" || isPlainSchema(value);
		case "items":
			return isPlainSchema(value);
		case "enum":
			return Array.isArray(value) && value.every(isPrimitive);
		case "const":
			return isPrimitive(value);
		case "minimum":
		case "maximum":
		case "exclusiveMinimum":
		case "exclusiveMaximum":
			return Number.isFinite(value);
		case "minItems":
		case "maxItems":
			return Number.isInteger(value);
		default:
			return ANNOTATIONS.has(key);
	}
}

const plainSchemas = new WeakMap<object, boolean>();

/** Whether `schema` stays inside the subset (remembered per schema object: tools are checked every call). */
export function isPlainSchema(schema: unknown): schema is SchemaNode {
	if (!isPlainObject(schema)) return false;
	let plain = plainSchemas.get(schema);
	if (plain === undefined) {
		plain = Object.entries(schema).every(([key, value]) => plainKeyword(key, value));
		plainSchemas.set(schema, plain);
	}
	return plain;
}

const typeAccepts = (type: string, value: unknown) => (JSON_TYPE_CHECKS[type] as (value: unknown) => boolean)(value);

function objectAccepts(schema: SchemaNode, value: Record<string, unknown>): boolean {
	const properties = (schema.properties ?? {}) as Record<string, unknown>;
	for (const name of (schema.required ?? []) as string[]) {
		if (!Object.hasOwn(value, name) || value[name] === undefined) return false;
	}
	for (const key of Object.keys(value)) {
		const member = value[key];
		if (Object.hasOwn(properties, key)) {
			// A present but undefined member counts as absent, as in TypeBox.
			if (member !== undefined && properties[key] !== true && !plainSchemaAccepts(properties[key], member))
				return false;
		} else if (schema.additionalProperties === false) return false;
		else if (isPlainObject(schema.additionalProperties) && !plainSchemaAccepts(schema.additionalProperties, member))
			return false;
	}
	return true;
}

function numberAccepts(schema: SchemaNode, value: number): boolean {
	const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema as Record<string, number | undefined>;
	return (
		(minimum === undefined || value >= minimum) &&
		(maximum === undefined || value <= maximum) &&
		(exclusiveMinimum === undefined || value > exclusiveMinimum) &&
		(exclusiveMaximum === undefined || value < exclusiveMaximum)
	);
}

function arrayAccepts(schema: SchemaNode, value: unknown[]): boolean {
	const { minItems, maxItems, items } = schema as { minItems?: number; maxItems?: number; items?: unknown };
	if ((minItems !== undefined && value.length < minItems) || (maxItems !== undefined && value.length > maxItems))
		return false;
	return items === undefined || value.every((item) => plainSchemaAccepts(items, item));
}

/** Whether `value` satisfies `schema`, which `isPlainSchema` accepted. */
export function plainSchemaAccepts(schema: unknown, value: unknown): boolean {
	const node = schema as SchemaNode;
	const { type } = node;
	if (
		typeof type === "string"
			? !typeAccepts(type, value)
			: Array.isArray(type) && !type.some((t) => typeAccepts(t, value))
	)
		return false;
	if (Array.isArray(node.enum) && !node.enum.includes(value)) return false;
	if (Object.hasOwn(node, "const") && node.const !== value) return false;
	if (typeof value === "number") return numberAccepts(node, value);
	if (Array.isArray(value)) return arrayAccepts(node, value);
	if (isPlainObject(value)) return objectAccepts(node, value);
	return true;
}
