import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { TSchema } from "typebox";
import { errorMessage } from "../../core/errors.js";
import { parseJsonFile } from "../fs/json-file.js";
import { stripBom } from "../fs/json-text.js";
import { type ModelsJson, ModelsJsonSchema } from "./schema.js";
import { matchesSchema } from "./schema-check.js";

/**
 * Blanks `//` line comments and trailing commas before `}`/`]` (positions stay where they were),
 * leaving string literals untouched. Block comments are not supported.
 */
export function stripJsonComments(text: string): string {
	let out = "";
	let i = 0;
	while (i < text.length) {
		const char = text[i]!;
		if (char === '"') {
			const start = i++;
			while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
			out += text.slice(start, ++i);
			continue;
		}
		// Blanked rather than removed, so an error's line and column still point into the file.
		if (char === "/" && text[i + 1] === "/") {
			while (i < text.length && text[i] !== "\n") {
				out += " ";
				i++;
			}
			continue;
		}
		if (char === ",") {
			let j = i + 1;
			while (j < text.length && /\s/.test(text[j]!)) j++;
			if (text[j] === "}" || text[j] === "]") {
				out += " ";
				i++;
				continue;
			}
		}
		out += char;
		i++;
	}
	return out;
}

export type ModelsJsonLoad = { config: ModelsJson | undefined; error?: string };

/** Loads models.json. A missing file is no configuration; any other failure ignores the whole file. */
export function loadModelsJson(path: string): ModelsJsonLoad {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { config: undefined };
		return { config: undefined, error: `Failed to load models.json: ${errorMessage(error)}\n\nFile: ${path}` };
	}
	return parseModelsJson(text, path);
}

export function parseModelsJson(text: string, path: string): ModelsJsonLoad {
	let parsed: unknown;
	try {
		// A comment could hide a trailing comma, so comments go first (both in one pass).
		parsed = parseJsonFile(path, stripJsonComments(stripBom(text)));
	} catch (error) {
		return { config: undefined, error: `Failed to parse models.json: ${errorMessage(error)}\n\nFile: ${path}` };
	}
	const problems = matchesSchema(ModelsJsonSchema, parsed) ? [] : schemaProblems(parsed);
	if (problems.length > 0) {
		const lines = problems.map((problem) => `  - ${problem}`).join("\n");
		return { config: undefined, error: `Invalid models.json schema:\n${lines}\n\nFile: ${path}` };
	}
	return { config: Object.freeze(parsed as ModelsJson) };
}

/**
 * The schema engine, loaded only to describe an invalid file (it costs startup time otherwise).
 * `require` because loading models.json is synchronous; Node >= 20.19 can require ES modules.
 */
function schemaEngine(): {
	Value: typeof import("typebox/value").Value;
	Settings: typeof import("typebox/system").Settings;
} {
	const require = createRequire(import.meta.url);
	const { Value } = require("typebox/value") as typeof import("typebox/value");
	const { Settings } = require("typebox/system") as typeof import("typebox/system");
	return { Value, Settings };
}

/** `<dotted.path>: <message>` for every schema violation; a missing property's path ends with its name. */
function schemaProblems(value: unknown): string[] {
	const { Value, Settings } = schemaEngine();
	const byPath = new Map<string, { messages: string[]; constants: unknown[]; types: string[]; union: boolean }>();
	const entry = (path: string) => {
		let found = byPath.get(path);
		if (!found) {
			found = { messages: [], constants: [], types: [], union: false };
			byPath.set(path, found);
		}
		return found;
	};
	const errors = Value.Errors(ModelsJsonSchema as TSchema, value);
	for (const error of errors) {
		const segments = error.instancePath.split("/").slice(1);
		const path = segments.length > 0 ? segments.join(".") : "root";
		const params = error.params as { requiredProperties?: string[]; allowedValue?: unknown; type?: string };
		if (error.keyword === "required" && params.requiredProperties) {
			for (const property of params.requiredProperties)
				entry([...segments, property].join(".")).messages.push("is required");
		} else if (error.keyword === "enum") {
			const allowed = (params as { allowedValues?: unknown[] }).allowedValues ?? [];
			entry(path).messages.push(`must be one of ${allowed.map((value) => JSON.stringify(value)).join(", ")}`);
		} else if (error.keyword === "anyOf") {
			entry(path).union = true;
		} else if (error.keyword === "const" && error.schemaPath.includes("/anyOf/")) {
			entry(path).constants.push(params.allowedValue);
		} else if (error.keyword === "type" && error.schemaPath.includes("/anyOf/") && params.type) {
			entry(path).types.push(params.type);
		} else {
			entry(path).messages.push(error.message);
		}
	}
	const problems: string[] = [];
	for (const [path, { messages, constants, types, union }] of byPath) {
		// A failed union reports each branch; say once what would have been accepted. Without the
		// union's own error the branch list was cut off by the error limit.
		if (union) {
			const accepted = [...constants.map((constant) => JSON.stringify(constant)), ...types];
			problems.push(`${path}: must be ${accepted.join(" or ")}`);
		} else if (constants.length > 0 || types.length > 0) {
			problems.push(`${path}: has a value that is not allowed`);
		}
		for (const message of new Set(messages)) problems.push(`${path}: ${message}`);
	}
	if (errors.length >= Settings.Get().maxErrors) problems.push("(further errors not shown)");
	return problems;
}
