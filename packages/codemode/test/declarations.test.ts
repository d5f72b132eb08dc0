import {
	renderDeclarations,
	renderToolOutputType,
	renderToolSample,
	renderToolSignature,
	resolveSchemaRef,
	schemaToType,
	toCodemodeIdentifier,
} from "@tau/codemode/declarations";
import { describe, expect, it } from "vitest";

describe("toCodemodeIdentifier", () => {
	it("replaces characters invalid in identifiers", () => {
		expect(toCodemodeIdentifier("my-tool")).toBe("my_tool");
		expect(toCodemodeIdentifier("1st.tool")).toBe("_st_tool");
		expect(toCodemodeIdentifier("$ok_1")).toBe("$ok_1");
		expect(toCodemodeIdentifier("")).toBe("_");
	});
});

describe("schemaToType", () => {
	it("renders primitives, literals, unions and intersections", () => {
		expect(schemaToType(true)).toBe("unknown");
		expect(schemaToType(false)).toBe("never");
		expect(schemaToType({ type: "integer" })).toBe("number");
		expect(schemaToType({ const: "a" })).toBe('"a"');
		expect(schemaToType({ enum: ["a", 1, null] })).toBe('"a" | 1 | null');
		expect(schemaToType({ type: ["string", "null"] })).toBe("string | null");
		expect(schemaToType({ anyOf: [{ type: "string" }, {}] })).toBe("unknown");
		expect(schemaToType({ oneOf: [{ type: "string" }, { type: "number" }] })).toBe("string | number");
		expect(
			schemaToType({
				allOf: [
					{ type: "object", properties: { a: { type: "string" } } },
					{ type: "object", properties: { b: { type: "number" } }, required: ["b"] },
				],
			}),
		).toBe("{ a?: string } & { b: number }");
	});

	it("renders arrays and tuples", () => {
		expect(schemaToType({ type: "array", items: { type: "string" } })).toBe("Array<string>");
		expect(schemaToType({ type: "array", prefixItems: [{ type: "string" }, { type: "number" }] })).toBe(
			"[string, number]",
		);
		expect(schemaToType({ type: "array" })).toBe("unknown[]");
	});

	it("renders objects with sorted, quoted keys, optional marks and index signatures", () => {
		expect(
			schemaToType({
				type: "object",
				properties: { zeta: { type: "string" }, "needs-quote": { type: "number" }, alpha: { type: "boolean" } },
				required: ["zeta"],
			}),
		).toBe('{ alpha?: boolean; "needs-quote"?: number; zeta: string }');
		expect(schemaToType({ type: "object" })).toBe("{ [key: string]: unknown }");
		expect(
			schemaToType({
				type: "object",
				properties: { a: { type: "string" } },
				additionalProperties: { type: "number" },
			}),
		).toBe("{ a?: string; [key: string]: number }");
		expect(schemaToType({ type: "object", additionalProperties: false })).toBe("{}");
	});

	it("renders descriptions and constraint tags as commented lines", () => {
		const type = schemaToType({
			type: "object",
			properties: {
				count: { type: "integer", minimum: 1, maximum: 10, default: 3, description: "How many" },
				path: { type: "string", pattern: "^/", format: "uri", deprecated: true },
				tags: { type: "array", items: { type: "string" }, uniqueItems: true },
				long: { type: "string", default: "x".repeat(200) },
			},
			required: ["path"],
		});
		expect(type).toBe(
			[
				"{",
				"  // How many",
				"  // @integer",
				"  // @minimum 1",
				"  // @maximum 10",
				"  // @default 3",
				"  count?: number;",
				`  // @default "${"x".repeat(69)}…`,
				"  long?: string;",
				"  // @pattern ^/",
				"  // @format uri",
				"  // @deprecated",
				"  path: string;",
				"  // @uniqueItems",
				"  tags?: Array<string>;",
				"}",
			].join("\n"),
		);
	});

	it("follows local refs, stops at recursion and ignores remote refs", () => {
		const schema = {
			type: "object",
			properties: {
				node: { $ref: "#/$defs/node" },
				old: { $ref: "#/definitions/a~1b" },
				remote: { $ref: "https://x/s.json" },
			},
			required: ["node", "old", "remote"],
			$defs: {
				node: {
					type: "object",
					properties: { next: { $ref: "#/$defs/node" }, v: { type: "number" } },
					required: ["v"],
				},
			},
			definitions: { "a/b": { type: "string" } },
		};
		expect(schemaToType(schema)).toBe("{ node: { next?: unknown; v: number }; old: string; remote: unknown }");
		expect(resolveSchemaRef(schema, "#/definitions/a~1b")).toEqual({ type: "string" });
		expect(resolveSchemaRef(schema, "#/nope")).toBeUndefined();
		expect(resolveSchemaRef(schema, "#")).toBe(schema);
	});

	it("limits expansions of repeated refs", () => {
		const properties = Object.fromEntries(
			Array.from({ length: 40 }, (_, i) => [`p${String(i).padStart(2, "0")}`, { $ref: "#/$defs/s" }]),
		);
		const type = schemaToType({ type: "object", properties, $defs: { s: { type: "string" } } });
		expect(type.match(/: string/g)).toHaveLength(32);
		expect(type.match(/: unknown/g)).toHaveLength(8);
	});

	it("drops tags, then gives up, over maxChars", () => {
		const schema = { type: "object", properties: { n: { type: "integer", minimum: 0 } } };
		expect(schemaToType(schema, { maxChars: 1000 })).toContain("@integer");
		expect(schemaToType(schema, { maxChars: 20 })).toBe("{ n?: number }");
		expect(schemaToType(schema, { maxChars: 5 })).toBe("unknown");
	});
});

describe("rendering tools", () => {
	const tool = {
		name: "read-file",
		description: "  Reads a file. Ends */ here.  ",
		inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
	};

	it("renders signatures, output types and samples", () => {
		expect(renderToolSignature(tool)).toBe("read_file(args: { path: string }): Promise<unknown>;");
		expect(renderToolOutputType({ outputSchema: { type: "string" } })).toBe("string");
		expect(renderToolSample(tool)).toBe(
			[
				"Reads a file. Ends */ here.",
				"",
				"Declaration:",
				"```ts",
				"declare const tools: { read_file(args: { path: string }): Promise<unknown>; };",
				"```",
			].join("\n"),
		);
		const huge = {
			type: "object",
			properties: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, { type: "string" }])),
		};
		expect(renderToolSignature({ name: "t", inputSchema: huge })).toBe("t(args: unknown): Promise<unknown>;");
	});

	it("renders declarations for tools, plain globals and namespaces", () => {
		expect(
			renderDeclarations({
				tools: [tool, { name: "read_file", description: "shadowed" }],
				globals: [
					{ name: "searchTools", description: "Search.", signature: "(query: string): Promise<string[]>" },
					{ name: "models.classify", spread: true, description: "Classify." },
					{ name: "helper", inputSchema: { type: "string" }, outputSchema: { type: "number" } },
				],
			}),
		).toBe(
			[
				"declare const tools: {",
				"  /**",
				"   * Reads a file. Ends *\\/ here.",
				"   */",
				"  read_file(args: { path: string }): Promise<unknown>;",
				"};",
				"/**",
				" * Search.",
				" */",
				"declare function searchTools(query: string): Promise<string[]>;",
				"declare function helper(args: string): Promise<number>;",
				"declare const models: {",
				"  /**",
				"   * Classify.",
				"   */",
				"  classify(...args: unknown[]): Promise<unknown>;",
				"};",
			].join("\n"),
		);
	});
});
