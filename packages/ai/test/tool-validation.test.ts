import {
	makeStrictJsonSchema,
	resolveJsonSchemaStrictSampling,
	StringEnum,
	type Tool,
	type ToolCall,
	validateToolArguments,
	validateToolCall,
} from "@tau/ai";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";

const call = (args: Record<string, unknown>, extra: Partial<ToolCall> = {}): ToolCall => ({
	type: "toolCall",
	id: "c1",
	name: "t",
	arguments: args as ToolCall["arguments"],
	...extra,
});
const tool = (parameters: object): Tool => ({ name: "t", description: "d", parameters });

const plain = {
	type: "object",
	properties: {
		n: { type: "number" },
		i: { type: "integer" },
		b: { type: "boolean" },
		arr: { type: "array", items: { type: "string" } },
		opt: { type: "string" },
		req: { type: "string" },
		mode: { enum: ["fast", 1, true] },
		fixed: { const: 5 },
		either: { anyOf: [{ type: "string" }, { type: "number" }] },
		maybe: { type: ["integer", "null"] },
	},
	required: ["req"],
};

describe("validateToolArguments coercion", () => {
	it("coerces plain JSON Schema values as specified", () => {
		const args = {
			n: "42",
			i: "3.5",
			b: "TRUE",
			arr: "one",
			opt: null,
			req: null,
			mode: "1",
			fixed: "5",
			either: "7",
			maybe: "12",
		};
		const result = validateToolArguments(tool(plain), call(args));
		expect(result).toEqual({
			n: 42,
			i: 3,
			b: true,
			arr: ["one"],
			req: "null",
			mode: 1,
			fixed: 5,
			either: "7",
			maybe: 12,
		});
		expect(args.n).toBe("42");
		expect(args.opt).toBeNull();
	});

	it("coerces '1' to true, numbers to 1/0 and works with TypeBox schemas", () => {
		const schema = Type.Object({ flag: Type.Boolean(), count: Type.Number() });
		expect(validateToolArguments(tool(schema), call({ flag: "1", count: true }))).toEqual({ flag: true, count: 1 });
	});

	it("does not mutate the call's arguments even when the result is changed", () => {
		const c = call({ req: "x", arr: ["a"] });
		const result = validateToolArguments(tool(plain), c);
		result.arr.push("b");
		expect(c.arguments).toEqual({ req: "x", arr: ["a"] });
	});

	it("reports failures with dotted paths, root, and the original arguments", () => {
		const schema = {
			type: "object",
			properties: {
				n: { type: "number" },
				edits: {
					type: "array",
					items: { type: "object", properties: { oldText: { type: "string" } }, required: ["oldText"] },
				},
			},
			required: ["n"],
		};
		const args = { n: "abc", edits: [{}] };
		expect(() => validateToolArguments(tool(schema), call(args))).toThrowError(
			`Validation failed for tool "t":\n  - n: expected number, got string\n  - edits.0.oldText: missing\n\nReceived arguments:\n${JSON.stringify(args, null, 2)}`,
		);
		expect(() => validateToolArguments(tool({ type: "object", required: ["x"] }), call({}))).toThrowError(
			/ {2}- x: missing/,
		);
		expect(() =>
			validateToolArguments(tool({ type: "object", properties: {}, minProperties: 1 }), call({})),
		).toThrowError(/ {2}- root: expected at least 1 properties/);
	});

	it("throws for argumentsError without consulting the schema, and for unknown tools", () => {
		const broken = call({}, { argumentsError: "Unexpected end of JSON input" });
		expect(() => validateToolArguments(tool({ type: "object", required: ["x"] }), broken)).toThrowError(
			'Invalid arguments for tool "t": Unexpected end of JSON input',
		);
		expect(() => validateToolCall([tool(plain)], call({ req: "a" }, { name: "other" }))).toThrowError(
			'Tool "other" not found',
		);
		expect(validateToolCall([tool(plain)], call({ req: "a" }))).toEqual({ req: "a" });
	});

	it("rejects only values at a dangling $ref and accepts unknown formats", () => {
		const schema = {
			type: "object",
			properties: {
				r: { $ref: "#/$defs/missing" },
				f: { type: "string", format: "made-up" },
				e: { type: "string", format: "email" },
			},
		};
		expect(validateToolArguments(tool(schema), call({ f: "anything" }))).toEqual({ f: "anything" });
		expect(() => validateToolArguments(tool(schema), call({ r: 1 }))).toThrowError(/- r:/);
		expect(() => validateToolArguments(tool(schema), call({ e: "not-an-email" }))).toThrowError(
			/- e: expected format email/,
		);
	});
});

describe("strict schemas", () => {
	it("makes optional properties required and nullable and forbids extra properties", () => {
		const input = { type: "object", properties: { a: { type: "string" }, b: { type: "number" } }, required: ["a"] };
		const strict = makeStrictJsonSchema(input);
		expect(strict).toEqual({
			type: "object",
			properties: { a: { type: "string" }, b: { anyOf: [{ type: "number" }, { type: "null" }] } },
			required: ["a", "b"],
			additionalProperties: false,
		});
		expect(input).not.toHaveProperty("additionalProperties");
	});

	it("falls back for prefer and fails for require on unsupported schemas", () => {
		const parameters = { type: "object", properties: { x: { oneOf: [{ type: "string" }] } } };
		const prefer: Tool = {
			name: "p",
			description: "",
			parameters,
			constrainedSampling: { type: "json_schema", strict: "prefer" },
		};
		const require: Tool = { ...prefer, name: "r", constrainedSampling: { type: "json_schema", strict: "require" } };
		expect(resolveJsonSchemaStrictSampling(prefer, true)).toBeUndefined();
		expect(() => resolveJsonSchemaStrictSampling(require, true)).toThrowError(
			/^Tool "r" requires JSON-schema constrained sampling, but the schema uses unsupported keyword "oneOf"/,
		);
		expect(() => resolveJsonSchemaStrictSampling(require, false)).toThrowError(
			'Tool "r" requires JSON-schema constrained sampling, but strict tools are unsupported.',
		);
		const ok: Tool = { ...require, parameters: { type: "object", properties: { x: { type: "string" } } } };
		expect(resolveJsonSchemaStrictSampling(ok, true)).toBe(true);
		expect(resolveJsonSchemaStrictSampling({ ...ok, constrainedSampling: undefined }, true)).toBeUndefined();
		const okPrefer: Tool = { ...ok, constrainedSampling: { type: "json_schema", strict: "prefer" } };
		expect(resolveJsonSchemaStrictSampling(okPrefer, true, (keyword) => keyword === "type")).toBeUndefined();
	});

	it("StringEnum produces the portable enum form", () => {
		expect(StringEnum(["a", "b"], { description: "pick" })).toEqual({
			type: "string",
			enum: ["a", "b"],
			description: "pick",
		});
	});
});
