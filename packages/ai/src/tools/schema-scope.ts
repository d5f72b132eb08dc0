import { isPlainObject } from "./plain-schema.js";
import { type SchemaNode, schemaAccepts } from "./schema-check.js";

/** The schema a subschema belongs to, for `$ref`s into its definitions. */
export interface Scope {
	root: SchemaNode;
}

export function asNode(schema: unknown): SchemaNode | undefined {
	return isPlainObject(schema) ? schema : undefined;
}

export function resolveRef(ref: string, scope: Scope): SchemaNode | undefined {
	if (!ref.startsWith("#")) return undefined;
	let node: unknown = scope.root;
	for (const raw of ref.slice(1).split("/").filter(Boolean)) {
		const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
		node = isPlainObject(node) ? node[key] : undefined;
	}
	return asNode(node);
}

/** Subschemas extended with the root's definitions, kept stable so their compiled validators are reused. */
const withRootDefinitions = new WeakMap<object, SchemaNode>();

/** Accepts against a subschema, with the root's definitions in reach of its `$ref`s. */
export function accepts(schema: SchemaNode, value: unknown, scope: Scope): boolean {
	if (schema === scope.root) return schemaAccepts(schema, value);
	let extended = withRootDefinitions.get(schema);
	if (!extended) {
		extended = { ...schema };
		if (scope.root.$defs !== undefined && extended.$defs === undefined) extended.$defs = scope.root.$defs;
		if (scope.root.definitions !== undefined && extended.definitions === undefined) {
			extended.definitions = scope.root.definitions;
		}
		withRootDefinitions.set(schema, extended);
	}
	return schemaAccepts(extended, value);
}
