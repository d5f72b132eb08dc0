import { isPlainObject } from "./plain-schema.js";
import type { SchemaNode } from "./schema-check.js";
import { accepts, asNode, resolveRef, type Scope } from "./schema-scope.js";

/*
 * Coercion of model-produced tool arguments towards their JSON Schema, keyed on JSON Schema keywords (TypeBox
 * conversion only understands TypeBox-marked schemas, and transcripts hold plain JSON Schema). Never mutates
 * its input.
 */

function numericString(value: string): number | undefined {
	if (value.trim() === "") return 0;
	const parsed = Number(value);
	return Number.isFinite(parsed) ? parsed : undefined;
}

/** Conversion of a value to one JSON type (pass 2), or `undefined` when it does not apply. */
function toType(type: string, value: unknown): { value: unknown } | undefined {
	switch (type) {
		case "string":
			if (typeof value === "number" || typeof value === "boolean") return { value: String(value) };
			if (value === null) return { value: "null" };
			return undefined;
		case "number":
		case "integer": {
			let n: number | undefined;
			if (typeof value === "number") n = value;
			else if (typeof value === "boolean") n = value ? 1 : 0;
			else if (value === null) n = 0;
			else if (value === "true" || value === "false") n = value === "true" ? 1 : 0;
			else if (typeof value === "string") n = numericString(value);
			if (n === undefined) return undefined;
			return { value: type === "integer" ? Math.trunc(n) : n };
		}
		case "boolean": {
			if (typeof value === "boolean") return { value };
			if (value === null) return { value: false };
			if (value === 1 || value === 0) return { value: value === 1 };
			if (typeof value !== "string") return undefined;
			const lower = value.toLowerCase();
			if (lower === "true" || value === "1") return { value: true };
			if (lower === "false" || value === "0") return { value: false };
			return undefined;
		}
		case "null":
			if (value === null) return { value };
			if (["null", "undefined", "", "0"].includes(value as string) || value === 0 || value === false)
				return { value: null };
			return undefined;
		default:
			return undefined;
	}
}

function typeMatches(type: string, value: unknown): boolean {
	switch (type) {
		case "string":
			return typeof value === "string";
		case "number":
			return typeof value === "number";
		case "integer":
			return typeof value === "number" && Number.isInteger(value);
		case "boolean":
			return typeof value === "boolean";
		case "null":
			return value === null;
		case "array":
			return Array.isArray(value);
		case "object":
			return isPlainObject(value);
		default:
			return false;
	}
}

/** Pass 3 (type arrays, Ajv `coerceTypes` style). */
function coerceTypeArray(types: string[], value: unknown): unknown {
	if (types.some((type) => typeMatches(type, value))) return value;
	const order = ["number", "integer", "boolean", "string", "null"];
	for (const type of order) {
		if (!types.includes(type)) continue;
		if ((type === "number" || type === "integer") && typeof value === "string" && value.trim() === "") continue;
		if (type === "string" && value === null) continue;
		const converted = toType(type, value);
		if (converted) return converted.value;
	}
	return value;
}

function pickMember(members: readonly unknown[], value: unknown): unknown {
	const encoded = JSON.stringify(value);
	if (members.some((member) => JSON.stringify(member) === encoded)) return value;
	for (const member of members) {
		const type = member === null ? "null" : typeof member;
		const converted = toType(type, value);
		if (converted && converted.value === member) return member;
	}
	return value;
}

function convertArray(value: unknown, schema: SchemaNode, scope: Scope): unknown {
	const items = Array.isArray(value) ? value : [value];
	const tuple = Array.isArray(schema.prefixItems)
		? schema.prefixItems
		: Array.isArray(schema.items)
			? schema.items
			: undefined;
	if (tuple && !Array.isArray(value)) return value;
	return items.map((item, index) => {
		const itemSchema = tuple
			? (tuple[index] ?? (Array.isArray(schema.items) ? undefined : schema.items))
			: schema.items;
		return convert(item, itemSchema, scope);
	});
}

function patternSchemaFor(key: string, patterns: unknown): unknown {
	if (!isPlainObject(patterns)) return undefined;
	for (const [pattern, schema] of Object.entries(patterns)) {
		try {
			if (new RegExp(pattern, "u").test(key)) return schema;
		} catch {
			// An invalid pattern simply matches nothing.
		}
	}
	return undefined;
}

/** Pass 1 (optional nulls removed) and pass 2 for each member. */
function convertObject(value: unknown, schema: SchemaNode, scope: Scope): unknown {
	if (!isPlainObject(value)) return value;
	const properties = isPlainObject(schema.properties) ? schema.properties : {};
	const required = Array.isArray(schema.required) ? schema.required : [];
	const out: Record<string, unknown> = {};
	for (const [key, member] of Object.entries(value)) {
		const memberSchema = Object.hasOwn(properties, key)
			? properties[key]
			: (patternSchemaFor(key, schema.patternProperties) ??
				(isPlainObject(schema.additionalProperties) ? schema.additionalProperties : undefined));
		const node = asNode(memberSchema);
		if (member === null && node && !required.includes(key) && !accepts(node, null, scope)) continue;
		// An undefined member counts as absent, so it is not converted into something present.
		const converted = member === undefined ? member : convert(member, memberSchema, scope);
		if (key === "__proto__")
			Object.defineProperty(out, key, { value: converted, enumerable: true, writable: true, configurable: true });
		else out[key] = converted;
	}
	return out;
}

function convert(value: unknown, schema: unknown, scope: Scope): unknown {
	const node = asNode(schema);
	if (!node) return value;
	if (typeof node.$ref === "string") {
		const target = resolveRef(node.$ref, scope);
		return target ? convert(value, target, scope) : value;
	}
	const members = Object.hasOwn(node, "const") ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
	if (members) {
		const member = pickMember(members, value);
		// No member matched: the value still gets its declared type, so the error names the members.
		if (member !== value || typeof node.type !== "string") return member;
		return toType(node.type, value)?.value ?? value;
	}
	const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
	if (branches) {
		if (branches.some((branch) => asNode(branch) && accepts(branch as SchemaNode, value, scope))) return value;
		for (const branch of branches) {
			const converted = convert(value, branch, scope);
			if (accepts(node, converted, scope)) return converted;
		}
		return value;
	}
	if (Array.isArray(node.allOf)) return node.allOf.reduce((current, member) => convert(current, member, scope), value);
	const type = node.type;
	if (Array.isArray(type)) {
		const types = type.filter((t): t is string => typeof t === "string");
		const coerced = coerceTypeArray(types, value);
		if (types.includes("object") && isPlainObject(coerced)) return convertObject(coerced, node, scope);
		if (types.includes("array") && Array.isArray(coerced)) return convertArray(coerced, node, scope);
		return coerced;
	}
	if (type === "object" || (type === undefined && isPlainObject(node.properties)))
		return convertObject(value, node, scope);
	if (type === "array") return convertArray(value, node, scope);
	if (typeof type === "string") return toType(type, value)?.value ?? value;
	return value;
}

/** Converts `value` towards `schema` (optional nulls, keyword conversions, type-array coercion). */
export function coerceToSchema(value: unknown, schema: unknown): unknown {
	const root = asNode(schema);
	return root ? convert(value, root, { root }) : value;
}
