import type { AgentTool } from "@tau/agent";
import type { JsonSchema } from "@tau/codemode";
import { renderToolSample, toCodemodeIdentifier } from "@tau/codemode/declarations";

/** What scripts learn about one callable tool. */
export interface ScriptToolInfo {
	name: string;
	jsName: string;
	description: string;
	parameters: unknown;
	outputSchema?: unknown;
	namespace?: { name: string; aliases?: string[]; description?: string; instructions?: string };
	guidelines: readonly string[];
}

export function scriptToolInfo(
	tool: AgentTool<any>,
	lookups: { namespace?: ScriptToolInfo["namespace"]; guidelines?: readonly string[] },
): ScriptToolInfo {
	return {
		name: tool.name,
		jsName: toCodemodeIdentifier(tool.name),
		description: tool.description,
		parameters: tool.parameters,
		...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
		...(lookups.namespace ? { namespace: lookups.namespace } : {}),
		guidelines: lookups.guidelines ?? [],
	};
}

/**
 * The unit discovery shows for a tool: its description plus prompt guidelines as bullets, and a
 * declaration whose output is `string` when the tool declares no output schema (text results).
 */
export function toolSample(tool: ScriptToolInfo): string {
	const bullets = tool.guidelines.map((g) => `- ${g}`);
	const description = [tool.description.trim(), ...bullets].filter((part) => part !== "").join("\n");
	return renderToolSample({
		name: tool.name,
		description,
		inputSchema: tool.parameters as JsonSchema,
		outputSchema: (tool.outputSchema as JsonSchema | undefined) ?? { type: "string" },
	});
}
