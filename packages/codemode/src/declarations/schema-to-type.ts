import type { JsonSchema } from "../types.js";

const MAX_REF_EXPANSIONS = 32;
const MAX_TAG_CHARS = 80;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Options of `schemaToType`: where `$ref`s resolve and how long the rendered type may get. */
export interface SchemaToTypeOptions {
	/** Document that local `$ref`s resolve against; defaults to the schema itself. */
	root?: JsonSchema;
	/** Longest accepted rendering; over it tags are dropped, then the type becomes `unknown`. */
	maxChars?: number;
}

type SchemaObject = { [key: string]: unknown };

/** Resolves a local `$ref` (`#`, `#/$defs/…`, `#/definitions/…`, any JSON pointer) or `undefined`. */
export function resolveSchemaRef(root: JsonSchema, ref: string): JsonSchema | undefined {
	if (ref === "#") return root;
	if (!ref.startsWith("#/")) return undefined;
	let node: unknown = root;
	for (const raw of ref.slice(2).split("/")) {
		const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
		if (!node || typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
		node = (node as SchemaObject)[key];
	}
	return typeof node === "boolean" || (node !== null && typeof node === "object") ? (node as JsonSchema) : undefined;
}

/** Renders a JSON Schema as a TypeScript type for declarations shown to the model. */
export function schemaToType(schema: JsonSchema, options: SchemaToTypeOptions = {}): string {
	const root = options.root ?? schema;
	const withTags = new TypeRenderer(root, true).render(schema, 0);
	if (options.maxChars === undefined || withTags.length <= options.maxChars) return withTags;
	const plain = new TypeRenderer(root, false).render(schema, 0);
	return plain.length <= options.maxChars ? plain : "unknown";
}

class TypeRenderer {
	private expansions = 0;
	private readonly refStack: string[] = [];

	constructor(
		private readonly root: JsonSchema,
		private readonly tags: boolean,
	) {}

	render(schema: unknown, depth: number): string {
		if (schema === true) return "unknown";
		if (schema === false) return "never";
		if (!schema || typeof schema !== "object" || Array.isArray(schema)) return "unknown";
		const s = schema as SchemaObject;
		if (typeof s.$ref === "string") return this.renderRef(s.$ref, depth);
		if ("const" in s) return literal(s.const);
		if (Array.isArray(s.enum)) return s.enum.length === 0 ? "never" : union(s.enum.map(literal));
		const variants = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as
			| unknown[]
			| undefined;
		if (variants) return union(variants.map((v) => this.render(v, depth)));
		if (Array.isArray(s.allOf)) {
			const parts = s.allOf.map((v) => this.render(v, depth)).filter((t) => t !== "unknown");
			return parts.length === 0 ? "unknown" : parts.map((p) => (p.includes(" | ") ? `(${p})` : p)).join(" & ");
		}
		if (Array.isArray(s.type)) return union(s.type.map((type) => this.renderTyped({ ...s, type }, depth)));
		return this.renderTyped(s, depth);
	}

	private renderRef(ref: string, depth: number): string {
		const target = resolveSchemaRef(this.root, ref);
		if (target === undefined || this.refStack.includes(ref) || this.expansions >= MAX_REF_EXPANSIONS)
			return "unknown";
		this.expansions++;
		this.refStack.push(ref);
		try {
			return this.render(target, depth);
		} finally {
			this.refStack.pop();
		}
	}

	private renderTyped(s: SchemaObject, depth: number): string {
		switch (s.type) {
			case "string":
				return "string";
			case "number":
			case "integer":
				return "number";
			case "boolean":
				return "boolean";
			case "null":
				return "null";
			case "array":
				return this.renderArray(s, depth);
			case "object":
				return this.renderObject(s, depth);
			default:
				return s.properties && typeof s.properties === "object" ? this.renderObject(s, depth) : "unknown";
		}
	}

	private renderArray(s: SchemaObject, depth: number): string {
		if (Array.isArray(s.prefixItems)) return `[${s.prefixItems.map((i) => this.render(i, depth)).join(", ")}]`;
		if (s.items !== undefined && !Array.isArray(s.items)) return `Array<${this.render(s.items, depth)}>`;
		return "unknown[]";
	}

	private renderObject(s: SchemaObject, depth: number): string {
		const properties = (s.properties && typeof s.properties === "object" ? s.properties : {}) as SchemaObject;
		const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]) : []);
		const keys = Object.keys(properties).sort();
		const members: { line: string; comments: string[] }[] = keys.map((key) => {
			const prop = properties[key];
			const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
			return {
				line: `${name}${required.has(key) ? "" : "?"}: ${this.render(prop, depth + 1)};`,
				comments: this.comments(prop),
			};
		});
		const extra = s.additionalProperties;
		if (extra === true || (extra && typeof extra === "object") || (keys.length === 0 && extra !== false)) {
			const valueType = extra && typeof extra === "object" ? this.render(extra, depth + 1) : "unknown";
			members.push({ line: `[key: string]: ${valueType};`, comments: [] });
		}
		if (members.length === 0) return "{}";
		if (members.every((m) => m.comments.length === 0)) {
			return `{ ${members.map((m) => m.line.slice(0, -1)).join("; ")} }`;
		}
		const indent = "  ".repeat(depth + 1);
		const body = members.flatMap((m) => [...m.comments.map((c) => `${indent}// ${c}`), `${indent}${m.line}`]);
		return `{\n${body.join("\n")}\n${"  ".repeat(depth)}}`;
	}

	private comments(schema: unknown): string[] {
		if (!schema || typeof schema !== "object") return [];
		const s = schema as SchemaObject;
		const out: string[] = [];
		if (typeof s.description === "string" && s.description.trim() !== "") {
			out.push(...s.description.trim().split(/\r?\n/));
		}
		if (!this.tags) return out;
		const tags: string[] = [];
		if (s.type === "integer") tags.push("@integer");
		for (const bound of [
			"minimum",
			"maximum",
			"exclusiveMinimum",
			"exclusiveMaximum",
			"minLength",
			"maxLength",
			"minItems",
			"maxItems",
		]) {
			if (typeof s[bound] === "number") tags.push(`@${bound} ${s[bound]}`);
		}
		if (typeof s.pattern === "string") tags.push(`@pattern ${s.pattern}`);
		if (typeof s.format === "string") tags.push(`@format ${s.format}`);
		if (s.uniqueItems === true) tags.push("@uniqueItems");
		if ("default" in s) tags.push(`@default ${JSON.stringify(s.default)}`);
		if (s.deprecated === true) tags.push("@deprecated");
		for (const tag of tags) out.push(tag.length > MAX_TAG_CHARS ? `${tag.slice(0, MAX_TAG_CHARS - 1)}…` : tag);
		return out;
	}
}

function literal(value: unknown): string {
	const json = JSON.stringify(value);
	return json === undefined ? "unknown" : json;
}

function union(types: string[]): string {
	if (types.includes("unknown")) return "unknown";
	const distinct = [...new Set(types)];
	if (distinct.length === 0) return "never";
	return distinct.join(" | ");
}
