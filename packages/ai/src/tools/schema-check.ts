import { createRequire } from "node:module";
import type { Compile as CompileFn } from "typebox/compile";
import type { Value as ValueNamespace } from "typebox/value";
import { isPlainSchema, plainSchemaAccepts } from "./plain-schema.js";

type Validators = { Compile: typeof CompileFn; Value: typeof ValueNamespace };

/**
 * TypeBox takes a few hundred milliseconds to load as separate modules, so it is loaded on the first
 * validation instead of when `@tau/ai` is imported (startup of every tau command). Node >= 20.19 can
 * `require` its ES modules.
 */
const requireModule = createRequire(import.meta.url);
let typebox: Validators | undefined;
let preloading: Promise<void> | undefined;

/**
 * Loads the validators ahead of the synchronous `validateToolArguments` (the agent awaits this before
 * a tool call): through `import()`, so the bundled CLI takes them from one lazily loaded chunk instead
 * of hundreds of modules (docs/cli.md, "Startup"). `undefined` once loaded, or when `schema` is given and
 * is checked without them (docs/design/tools.md#argument-validation).
 */
export function preloadSchemaValidator(schema?: unknown): Promise<void> | undefined {
	if (typebox || schema === true || isPlainSchema(schema)) return undefined;
	preloading ??= Promise.all([import("typebox/compile"), import("typebox/value")]).then(([compile, value]) => {
		typebox ??= { Compile: compile.Compile, Value: value.Value };
	});
	return preloading;
}

function loadTypebox(): Validators {
	typebox ??= {
		Compile: (requireModule("typebox/compile") as { Compile: typeof CompileFn }).Compile,
		Value: (requireModule("typebox/value") as { Value: typeof ValueNamespace }).Value,
	};
	return typebox;
}

export type SchemaNode = Record<string, unknown>;

interface Checker {
	check(value: unknown): boolean;
}

/** Validators are cached per schema object: tools are validated on every call. */
const checkers = new WeakMap<object, Checker>();

function buildChecker(schema: object): Checker {
	const { Compile, Value } = loadTypebox();
	try {
		const validator = Compile(schema as never);
		return { check: (value) => validator.Check(value) };
	} catch {
		// Schemas the compiler rejects are still checked by the (slower) interpreter.
		return { check: (value) => Value.Check(schema as never, value) };
	}
}

function checkerFor(schema: object): Checker {
	let checker = checkers.get(schema);
	if (!checker) {
		checker = buildChecker(schema);
		checkers.set(schema, checker);
	}
	return checker;
}

/** Whether `value` satisfies `schema` (plain JSON Schema; TypeBox markers not required). */
export function schemaAccepts(schema: unknown, value: unknown): boolean {
	if (schema === true || schema === undefined) return true;
	if (schema === false || typeof schema !== "object" || schema === null) return false;
	if (isPlainSchema(schema)) return plainSchemaAccepts(schema, value);
	try {
		return checkerFor(schema).check(value);
	} catch {
		return false;
	}
}
