import type { CodemodeTool, JsonSchema } from "../types.js";
import { toCodemodeIdentifier } from "./identifier.js";
import { schemaToType } from "./schema-to-type.js";

/** Input types longer than this are declared as `unknown`. */
export const DEFAULT_INPUT_SCHEMA_MAX_CHARS = 16_000;

type DeclaredTool = Pick<CodemodeTool, "name" | "description" | "inputSchema" | "outputSchema">;
type DeclaredGlobal = Pick<
	CodemodeTool,
	"name" | "description" | "inputSchema" | "outputSchema" | "spread" | "signature"
>;

/** The declared resolution type of a tool: its output schema, or `unknown` when absent. */
export function renderToolOutputType(tool: { outputSchema?: JsonSchema }): string {
	return tool.outputSchema === undefined ? "unknown" : schemaToType(tool.outputSchema);
}

function inputType(schema: JsonSchema | undefined, maxChars = DEFAULT_INPUT_SCHEMA_MAX_CHARS): string {
	return schema === undefined ? "unknown" : schemaToType(schema, { maxChars });
}

/** `<jsName>(args: <input>): Promise<<output>>;` */
export function renderToolSignature(tool: DeclaredTool, options: { inputMaxChars?: number } = {}): string {
	return `${toCodemodeIdentifier(tool.name)}(args: ${inputType(tool.inputSchema, options.inputMaxChars)}): Promise<${renderToolOutputType(tool)}>;`;
}

/** Description, blank line, label, and a `ts` block declaring the tool: what discovery shows. */
export function renderToolSample(tool: DeclaredTool, options: { label?: string; inputMaxChars?: number } = {}): string {
	const description = tool.description?.trim() ?? "";
	const block = [
		options.label ?? "Declaration:",
		"```ts",
		`declare const tools: { ${renderToolSignature(tool, options)} };`,
		"```",
	].join("\n");
	return description === "" ? block : `${description}\n\n${block}`;
}

function docComment(description: string | undefined, indent: string): string[] {
	const text = description?.trim();
	if (!text) return [];
	const lines = text.replace(/\*\//g, "*\\/").split(/\r?\n/);
	return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`];
}

function globalSignature(global: DeclaredGlobal): string {
	if (global.signature) return global.signature;
	const params = global.spread ? "...args: unknown[]" : `args: ${inputType(global.inputSchema)}`;
	return `(${params}): Promise<${renderToolOutputType(global)}>`;
}

/** TypeScript declarations for the script environment: `tools`, plain globals and namespaces. */
export function renderDeclarations(input: { tools?: DeclaredTool[]; globals?: DeclaredGlobal[] }): string {
	const out: string[] = ["declare const tools: {"];
	const seen = new Set<string>();
	for (const tool of input.tools ?? []) {
		const jsName = toCodemodeIdentifier(tool.name);
		if (seen.has(jsName)) continue;
		seen.add(jsName);
		out.push(...docComment(tool.description, "  "), `  ${renderToolSignature(tool)}`);
	}
	out.push("};");
	const namespaces = new Map<string, DeclaredGlobal[]>();
	for (const global of input.globals ?? []) {
		const dot = global.name.indexOf(".");
		if (dot < 0) {
			out.push(...docComment(global.description, ""), `declare function ${global.name}${globalSignature(global)};`);
			continue;
		}
		const ns = global.name.slice(0, dot);
		namespaces.set(ns, [...(namespaces.get(ns) ?? []), global]);
	}
	for (const [ns, members] of namespaces) {
		out.push(`declare const ${ns}: {`);
		for (const member of members) {
			out.push(
				...docComment(member.description, "  "),
				`  ${member.name.slice(ns.length + 1)}${globalSignature(member)};`,
			);
		}
		out.push("};");
	}
	return out.join("\n");
}
