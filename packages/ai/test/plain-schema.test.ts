import { Compile } from "typebox/compile";
import { describe, expect, it } from "vitest";
// Not public: the subset checker stands in for TypeBox, so it must give TypeBox's answer wherever it applies.
import { isPlainSchema, plainSchemaAccepts } from "../src/tools/plain-schema.js";

/** Nested objects and arrays as tool schemas nest them. */
const batch = {
	type: "object",
	required: ["name", "jobs"],
	additionalProperties: false,
	properties: {
		name: { type: "string" },
		jobs: {
			type: "array",
			minItems: 1,
			maxItems: 3,
			items: {
				type: "object",
				additionalProperties: false,
				required: ["id"],
				properties: { id: { type: "integer", minimum: 0 }, tags: { type: "array", items: { type: "string" } } },
			},
		},
	},
};

/** Each schema of the subset with values on both sides of each of its keywords. */
const CASES: { schema: Record<string, unknown>; values: unknown[] }[] = [
	{ schema: { type: "string" }, values: ["", "x", 1, null, undefined, [], {}] },
	{ schema: { type: "number" }, values: [0, -1.5, Number.NaN, Number.POSITIVE_INFINITY, "1", null, true] },
	{ schema: { type: "integer" }, values: [0, 3, 1.0, 1.5, Number.POSITIVE_INFINITY, "2"] },
	{ schema: { type: "boolean" }, values: [true, false, 0, "true"] },
	{ schema: { type: "null" }, values: [null, undefined, 0, ""] },
	{ schema: { type: "array" }, values: [[], [1], {}, "a"] },
	{ schema: { type: "object" }, values: [{}, [], null, new Date(0), "o"] },
	{ schema: { type: ["string", "null"] }, values: ["a", null, 1, undefined] },
	{ schema: { enum: ["a", 1, null, true] }, values: ["a", 1, null, true, "b", 2, false, -0] },
	{ schema: { enum: [0] }, values: [0, -0, "0"] },
	{ schema: { const: "x" }, values: ["x", "y", undefined] },
	{
		schema: { type: "number", minimum: 1, maximum: 3, exclusiveMinimum: 0, exclusiveMaximum: 4 },
		values: [0, 1, 2.5, 3, 3.5],
	},
	{ schema: { type: "number", exclusiveMinimum: 1, exclusiveMaximum: 2 }, values: [1, 1.5, 2] },
	{
		schema: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 2 },
		values: [[], ["a"], ["a", 1], ["a", "b", "c"]],
	},
	{ schema: { items: { type: "integer" } }, values: [[1, 2], [1.5], "not an array", 7] },
	{
		schema: { type: "object", required: ["a"], properties: { a: { type: "string" }, b: { type: "number" } } },
		values: [
			{ a: "x" },
			{ a: "x", b: 1 },
			{ a: "x", b: "1" },
			{ b: 1 },
			{ a: undefined },
			{ a: "x", b: undefined },
			{ a: "x", c: {} },
		],
	},
	{
		schema: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
		values: [{}, { a: "x" }, { a: "x", b: 1 }, JSON.parse('{"__proto__":1}'), { b: undefined }],
	},
	{
		schema: { type: "object", additionalProperties: { type: "number" } },
		values: [{}, { a: 1 }, { a: "1" }],
	},
	{ schema: { type: "object", properties: { b: true } }, values: [{}, { b: [] }] },
	{ schema: { properties: { a: { type: "string" } } }, values: [5, "s", { a: 5 }, { a: "s" }] },
	{
		schema: batch,
		values: [
			{ name: "n", jobs: [{ id: 1 }, { id: 2, tags: ["a"] }] },
			{ name: "n", jobs: [] },
			{ name: "n", jobs: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }] },
			{ name: "n", jobs: [{ id: -1 }] },
			{ name: "n", jobs: [{ id: 1, tags: [1] }] },
			{ name: "n", jobs: [{ id: 1, extra: true }] },
			{ name: "n", jobs: [{ id: 1 }], extra: true },
			{ jobs: [{ id: 1 }] },
		],
	},
];

describe("the plain JSON Schema subset", () => {
	it("gives TypeBox's answer for each keyword it checks", () => {
		for (const { schema, values } of CASES) {
			expect(isPlainSchema(schema), JSON.stringify(schema)).toBe(true);
			const compiled = Compile(schema as never);
			for (const value of values) {
				expect(
					plainSchemaAccepts(schema, value),
					`${JSON.stringify(schema)} ${String(JSON.stringify(value))}`,
				).toBe(compiled.Check(value));
			}
		}
	});

	it("leaves every schema with another keyword, anywhere in it, to TypeBox", () => {
		const outside = [
			{ type: "string", minLength: 1 },
			{ type: "string", pattern: "^a" },
			{ type: "string", format: "uri" },
			{ anyOf: [{ type: "string" }] },
			{ $ref: "#/$defs/a", $defs: { a: { type: "string" } } },
			{ type: "object", properties: { a: { type: "string", maxLength: 2 } } },
			{ type: "array", items: [{ type: "string" }] },
			{ type: "array", items: { not: {} } },
			{ type: "object", additionalProperties: { type: "string", pattern: "x" } },
			{ enum: [{ a: 1 }] },
			{ const: [1] },
			{ type: "decimal" },
			{ type: "object", "~refine": [] },
			{ type: "object", properties: { a: false } },
		];
		for (const schema of outside) expect(isPlainSchema(schema), JSON.stringify(schema)).toBe(false);
	});
});
