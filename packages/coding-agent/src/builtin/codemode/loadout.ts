import type { AgentTool } from "@tau/agent";
import { resolveSchemaRef, schemaToType } from "@tau/codemode/declarations";
import type { ToolLoadout, ToolLoadoutChanges } from "../../core/extensions/api/tool-definition.js";
import { codemodeDescription } from "./description.js";
import { type ScriptToolInfo, scriptToolInfo } from "./samples.js";

export const CODEMODE_TOOL_NAME = "codemode";
const MAX_INLINE_TYPE_CHARS = 160;

export interface CodemodeLoadoutOptions {
	mode: "on" | "only";
	inlineBudget: number;
	models: boolean;
}

type Schema = Record<string, unknown>;

function follow(schema: unknown, root: unknown): Schema | undefined {
	let node = schema;
	for (let i = 0; i < 32 && node && typeof node === "object" && typeof (node as Schema).$ref === "string"; i++) {
		node = resolveSchemaRef(root as Schema, (node as Schema).$ref as string);
	}
	return node && typeof node === "object" ? (node as Schema) : undefined;
}

/** `{ a, b?, kind: "x", nested: { c, d? } }` for an object schema, one nested level deep. */
function fieldShape(schema: Schema, root: unknown, depth: number): string | undefined {
	const properties = schema.properties as Record<string, unknown> | undefined;
	if (!properties || typeof properties !== "object") return undefined;
	const required = new Set(Array.isArray(schema.required) ? schema.required : []);
	const fields = Object.entries(properties).map(([key, raw]) => {
		const prop = follow(raw, root);
		const name = `${key}${required.has(key) ? "" : "?"}`;
		if (prop && "const" in prop) return `${name}: ${JSON.stringify(prop.const)}`;
		if (prop && depth === 0) {
			const nested = fieldShape(prop, root, 1);
			if (nested) return `${name}: ${nested}`;
		}
		return name;
	});
	return `{ ${fields.join(", ")} }`;
}

/** How scripts see a direct tool's result, in a few words (B.3). */
export function resolutionSummary(tool: { name: string; outputSchema?: unknown }, jsName: string): string {
	if (tool.outputSchema === undefined) return "a string";
	const root = tool.outputSchema;
	const schema = follow(root, root);
	if (schema) {
		const variants = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
		if (Array.isArray(variants)) {
			const shapes = variants.map((v) => {
				const resolved = follow(v, root);
				return resolved ? fieldShape(resolved, root, 0) : undefined;
			});
			if (shapes.every((s) => s !== undefined)) return shapes.join(" | ");
		}
		const shape = fieldShape(schema, root, 0);
		if (shape) return shape;
	}
	const type = schemaToType(root as Schema);
	if (!type.includes("\n") && type.length <= MAX_INLINE_TYPE_CHARS) return `\`${type}\``;
	return `a value described by \`describeTool("${jsName}")\``;
}

function infos(tools: readonly AgentTool<any>[], loadout: ToolLoadout): ScriptToolInfo[] {
	return tools
		.filter((tool) => tool.name !== CODEMODE_TOOL_NAME)
		.map((tool) => {
			const namespace = loadout.getNamespace(tool.name);
			return scriptToolInfo(tool, {
				...(namespace ? { namespace } : {}),
				guidelines: loadout.getPromptGuidelines(tool.name),
			});
		});
}

/**
 * `on`: callable direct tools keep their declarations with a paragraph on how scripts call them,
 * and `codemode` lists the callable `codemode`-exposure tools. `only`: `codemode` lists every
 * callable non-deferred tool and the direct ones leave the requests (still active and callable).
 */
export function prepareCodemodeLoadout(loadout: ToolLoadout, options: CodemodeLoadoutOptions): ToolLoadoutChanges {
	const callable = loadout.callable.filter((tool) => tool.name !== CODEMODE_TOOL_NAME);
	const exposure = (tool: AgentTool<any>) => loadout.getExposure(tool.name);
	const listed =
		options.mode === "only"
			? callable.filter((t) => exposure(t) !== "deferred")
			: callable.filter((t) => exposure(t) !== "direct" && exposure(t) !== "deferred");
	const descriptions: Record<string, string> = {
		[CODEMODE_TOOL_NAME]: codemodeDescription(infos(listed, loadout), {
			inlineBudget: options.inlineBudget,
			models: options.models,
		}),
	};
	const callableNames = new Set(callable.map((t) => t.name));
	const directDeclared = loadout.declared.filter((t) => callableNames.has(t.name) && exposure(t) === "direct");
	if (options.mode === "only") {
		return { descriptions, hiddenDeclarations: directDeclared.map((t) => t.name) };
	}
	for (const tool of directDeclared) {
		const [info] = infos([tool], loadout);
		if (!info) continue;
		descriptions[tool.name] =
			`${tool.description}\n\nIn codemode scripts call it as \`tools.${info.jsName}(args)\`; it resolves to ${resolutionSummary(tool, info.jsName)}.`;
	}
	return { descriptions };
}
