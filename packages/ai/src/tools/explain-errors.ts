import { isPlainObject, JSON_TYPE_CHECKS } from "./plain-schema.js";
import type { SchemaNode } from "./schema-check.js";
import { accepts, asNode, resolveRef, type Scope } from "./schema-scope.js";

/**
 * Why a value fails a JSON Schema, in the words the model gets back (docs/ai.md "Tools"): each failing
 * keyword reported at the value it failed on, as pi-ai words it (`missing`, `expected string, got integer`,
 * `unknown field`), so a model sees the same feedback under tau and pi.
 */

export interface SchemaProblem {
	/** JSON Pointer of the value, `""` for the root. */
	path: string;
	message: string;
}

/** At most this many enum values are listed; the rest are counted. */
const LISTED_VALUES = 20;

function listValues(values: readonly unknown[]): string {
	if (values.length <= LISTED_VALUES) return JSON.stringify(values);
	const listed = JSON.stringify(values.slice(0, LISTED_VALUES));
	return `${listed.slice(0, -1)}, ... and ${values.length - LISTED_VALUES} more]`;
}

function typeName(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "array";
	if (typeof value === "number" && Number.isInteger(value)) return "integer";
	if (typeof value === "number" && !Number.isFinite(value)) return String(value);
	return typeof value;
}

const pointer = (path: string, key: string | number) =>
	`${path}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

const deepEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Code points, as JSON Schema counts string length. */
const length = (text: string) => [...text].length;

class Explainer {
	readonly problems: SchemaProblem[] = [];

	constructor(private readonly scope: Scope) {}

	private ok(schema: unknown, value: unknown): boolean {
		if (schema === true || schema === undefined) return true;
		const node = asNode(schema);
		return node ? accepts(node, value, this.scope) : false;
	}

	private push(path: string, message: string): void {
		this.problems.push({ path, message });
	}

	walk(schema: unknown, value: unknown, path: string): void {
		if (schema === true) return;
		if (schema === false) {
			this.push(path, "no value is allowed here");
			return;
		}
		const node = asNode(schema);
		if (!node || this.ok(node, value)) return;
		if (node.type !== undefined) {
			const types = (Array.isArray(node.type) ? node.type : [node.type]) as string[];
			if (!types.some((type) => JSON_TYPE_CHECKS[type]?.(value))) {
				this.push(path, `expected ${types.join(" or ")}, got ${typeName(value)}`);
				return;
			}
		}
		if (Array.isArray(node.enum) && !node.enum.some((option) => deepEqual(option, value))) {
			this.push(path, `expected one of ${listValues(node.enum)}`);
		}
		if (Object.hasOwn(node, "const") && !deepEqual(node.const, value)) {
			this.push(path, `expected ${JSON.stringify(node.const)}`);
		}
		if (typeof value === "string") this.walkString(node, value, path);
		if (typeof value === "number") this.walkNumber(node, value, path);
		if (isPlainObject(value)) this.walkObject(node, value, path);
		if (Array.isArray(value)) this.walkArray(node, value, path);
		for (const branch of Array.isArray(node.allOf) ? node.allOf : []) this.walk(branch, value, path);
		if (Array.isArray(node.anyOf)) this.walkUnion(node.anyOf, value, path, false);
		if (Array.isArray(node.oneOf)) this.walkUnion(node.oneOf, value, path, true);
		if (node.not !== undefined && this.ok(node.not, value)) this.push(path, "must not match the schema in not");
		if (node.if !== undefined) {
			const branch = this.ok(node.if, value) ? node.then : node.else;
			if (branch !== undefined) this.walk(branch, value, path);
		}
		if (typeof node.$ref === "string") {
			const target = resolveRef(node.$ref, this.scope);
			if (target) this.walk(target, value, path);
			else this.push(path, `unresolved reference ${node.$ref}`);
		}
	}

	private walkString(node: SchemaNode, value: string, path: string): void {
		if (typeof node.minLength === "number" && length(value) < node.minLength) {
			this.push(path, `expected at least ${node.minLength} characters`);
		}
		if (typeof node.maxLength === "number" && length(value) > node.maxLength) {
			this.push(path, `expected at most ${node.maxLength} characters`);
		}
		if (typeof node.pattern === "string" && !new RegExp(node.pattern, "u").test(value)) {
			this.push(path, `expected to match ${node.pattern}`);
		}
		// Known formats are checked by the validator; an unknown format accepts anything.
		if (typeof node.format === "string" && !this.ok({ type: "string", format: node.format }, value)) {
			this.push(path, `expected format ${node.format}`);
		}
	}

	private walkNumber(node: SchemaNode, value: number, path: string): void {
		const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = node;
		if (typeof minimum === "number" && value < minimum) this.push(path, `expected >= ${minimum}`);
		if (typeof maximum === "number" && value > maximum) this.push(path, `expected <= ${maximum}`);
		if (typeof exclusiveMinimum === "number" && value <= exclusiveMinimum)
			this.push(path, `expected > ${exclusiveMinimum}`);
		if (typeof exclusiveMaximum === "number" && value >= exclusiveMaximum)
			this.push(path, `expected < ${exclusiveMaximum}`);
		if (typeof multipleOf === "number" && !Number.isInteger(value / multipleOf)) {
			this.push(path, `expected a multiple of ${multipleOf}`);
		}
	}

	private walkObject(node: SchemaNode, value: Record<string, unknown>, path: string): void {
		const properties = isPlainObject(node.properties) ? node.properties : {};
		for (const key of Array.isArray(node.required) ? node.required : []) {
			if (typeof key === "string" && (!Object.hasOwn(value, key) || value[key] === undefined)) {
				this.push(pointer(path, key), "missing");
			}
		}
		for (const key of Object.keys(properties)) {
			if (Object.hasOwn(value, key) && value[key] !== undefined) {
				this.walk(properties[key], value[key], pointer(path, key));
			}
		}
		const patterns = isPlainObject(node.patternProperties) ? Object.entries(node.patternProperties) : [];
		for (const key of Object.keys(value)) {
			let declared = Object.hasOwn(properties, key);
			for (const [pattern, schema] of patterns) {
				if (!new RegExp(pattern, "u").test(key)) continue;
				declared = true;
				this.walk(schema, value[key], pointer(path, key));
			}
			if (!declared && node.additionalProperties === false) this.push(pointer(path, key), "unknown field");
			else if (!declared && node.additionalProperties !== undefined) {
				this.walk(node.additionalProperties, value[key], pointer(path, key));
			}
			if (node.propertyNames !== undefined && !this.ok(node.propertyNames, key)) {
				this.push(pointer(path, key), "invalid property name");
			}
		}
		const count = Object.keys(value).length;
		if (typeof node.minProperties === "number" && count < node.minProperties) {
			this.push(path, `expected at least ${node.minProperties} properties`);
		}
		if (typeof node.maxProperties === "number" && count > node.maxProperties) {
			this.push(path, `expected at most ${node.maxProperties} properties`);
		}
	}

	private walkArray(node: SchemaNode, value: unknown[], path: string): void {
		const tuple = Array.isArray(node.items);
		const prefix = (tuple ? node.items : Array.isArray(node.prefixItems) ? node.prefixItems : []) as unknown[];
		const rest = tuple ? node.additionalItems : node.items;
		value.forEach((item, index) => {
			const schema = index < prefix.length ? prefix[index] : rest;
			if (schema !== undefined) this.walk(schema, item, `${path}/${index}`);
		});
		if (typeof node.minItems === "number" && value.length < node.minItems) {
			this.push(path, `expected at least ${node.minItems} items`);
		}
		if (typeof node.maxItems === "number" && value.length > node.maxItems) {
			this.push(path, `expected at most ${node.maxItems} items`);
		}
		if (node.uniqueItems === true && new Set(value.map((item) => JSON.stringify(item))).size !== value.length) {
			this.push(path, "expected unique items");
		}
		if (node.contains !== undefined && !value.some((item) => this.ok(node.contains, item))) {
			this.push(path, "expected at least 1 matching item");
		}
	}

	/** A union blames the branch most likely meant: the one declaring most of an object's keys, then the deepest. */
	private walkUnion(branches: unknown[], value: unknown, path: string, exactlyOne: boolean): void {
		const matches = branches.filter((branch) => this.ok(branch, value)).length;
		if (matches === 1 || (!exactlyOne && matches > 0)) return;
		if (matches > 1) {
			this.push(path, "matches more than one alternative");
			return;
		}
		const tag = this.tagOf(branches);
		if (tag && isPlainObject(value)) {
			const index = tag.values.indexOf(value[tag.key]);
			if (index < 0) this.push(pointer(path, tag.key), `expected one of ${listValues(tag.values)}`);
			else this.walk(branches[index], value, path);
			return;
		}
		let best: { problems: SchemaProblem[]; declared: number } | undefined;
		for (const branch of branches) {
			const explainer = new Explainer(this.scope);
			explainer.walk(branch, value, path);
			if (explainer.problems.length === 0) continue;
			const node = asNode(branch);
			const properties = node && isPlainObject(node.properties) ? node.properties : {};
			const declared = isPlainObject(value)
				? Object.keys(value).filter((key) => Object.hasOwn(properties, key)).length
				: 0;
			const deeper = best !== undefined && explainer.problems[0]!.path.length > best.problems[0]!.path.length;
			if (!best || declared > best.declared || (declared === best.declared && deeper)) {
				best = { problems: explainer.problems, declared };
			}
		}
		this.problems.push(...(best?.problems ?? [{ path, message: "matches no alternative" }]));
	}

	/** A property whose `const` differs in every branch: the tag that selects a branch of a tagged union. */
	private tagOf(branches: unknown[]): { key: string; values: unknown[] } | undefined {
		const resolved = branches.map((branch) => {
			const node = asNode(branch);
			return node && typeof node.$ref === "string" ? resolveRef(node.$ref, this.scope) : node;
		});
		const first = resolved[0];
		if (!first || !isPlainObject(first.properties)) return undefined;
		for (const key of Object.keys(first.properties)) {
			const values = resolved.map((node) => {
				const property = node && isPlainObject(node.properties) ? asNode(node.properties[key]) : undefined;
				return property?.const;
			});
			const primitive = values.every((item) => item !== undefined && (typeof item !== "object" || item === null));
			if (primitive && new Set(values).size === values.length) return { key, values };
		}
		return undefined;
	}
}

/** Every problem of `value` against `schema` (at least one for a value the schema rejects). */
export function explainSchemaErrors(schema: SchemaNode, value: unknown): SchemaProblem[] {
	const explainer = new Explainer({ root: schema });
	explainer.walk(schema, value, "");
	return explainer.problems.length > 0 ? explainer.problems : [{ path: "", message: "invalid" }];
}
