import {
	FunctionCallingConfigMode,
	type Tool as GeminiTool,
	type GenerateContentConfig,
	type GenerateContentParameters,
} from "@google/genai";
import { getSystemMessageText } from "../../system-messages/render.js";
import { getCurrentTools, getInitialSystemMessage, resolveTranscript } from "../../system-messages/replay.js";
import type { GoogleOptions } from "../../types/api-options.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { Tool } from "../../types/tools.js";
import { sanitizeSurrogates } from "../../utils/sanitize-surrogates.js";
import { resolveToolSchema } from "../shared/tool-schema.js";
import { convertGoogleContents, geminiMajorVersion } from "./messages.js";
import { thinkingConfig } from "./thinking.js";

/** Keywords whose value maps names to subschemas (the names themselves are not keywords). */
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is a subschema or a list of them. */
const SUBSCHEMAS = new Set([
	"additionalProperties",
	"unevaluatedProperties",
	"propertyNames",
	"items",
	"prefixItems",
	"additionalItems",
	"unevaluatedItems",
	"contains",
	"allOf",
	"anyOf",
	"oneOf",
	"not",
	"if",
	"then",
	"else",
	"contentSchema",
]);

/** Gemini ignores `const` in JSON schemas but honours `enum`: a string or number const becomes a one-value enum. */
export function constAsEnum(schema: unknown, nameMap = false): unknown {
	if (Array.isArray(schema)) return schema.map((item) => constAsEnum(item));
	if (schema === null || typeof schema !== "object") return schema;
	const result: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(schema)) {
		if (nameMap || SUBSCHEMAS.has(key)) result[key] = constAsEnum(value);
		else if (NAME_MAPS.has(key)) result[key] = constAsEnum(value, true);
		else result[key] = value;
	}
	const constant = result.const;
	if (!nameMap && (typeof constant === "string" || typeof constant === "number") && result.enum === undefined) {
		delete result.const;
		result.enum = [constant];
	}
	return result;
}

/** Gemini 3 and later enforce the schema of validated function calling (tau's strict tools). */
function supportsStrictTools(model: Model<Api>): boolean {
	const major = geminiMajorVersion(model.id);
	return major !== undefined && major >= 3;
}

function convertTools(tools: readonly Tool[], strict: boolean): { tools: GeminiTool[]; anyStrict: boolean } {
	let anyStrict = false;
	const declarations = tools.map((tool) => {
		const schema = resolveToolSchema(tool, strict);
		if (schema.strict) anyStrict = true;
		return {
			name: tool.name,
			description: sanitizeSurrogates(tool.description),
			parametersJsonSchema: constAsEnum(schema.parameters),
		};
	});
	return { tools: [{ functionDeclarations: declarations }], anyStrict };
}

function functionCallingMode(
	toolChoice: GoogleOptions["toolChoice"],
	anyStrict: boolean,
): FunctionCallingConfigMode | undefined {
	if (toolChoice === "none") return FunctionCallingConfigMode.NONE;
	if (toolChoice === "any") return FunctionCallingConfigMode.ANY;
	if (anyStrict) return FunctionCallingConfigMode.VALIDATED;
	return toolChoice === "auto" ? FunctionCallingConfigMode.AUTO : undefined;
}

/** The `generateContentStream` parameters for one request, before `onPayload` (Gemini and Vertex alike). */
export function buildGoogleParams(
	model: Model<Api>,
	context: TranscriptContext,
	options: GoogleOptions,
): GenerateContentParameters {
	// Gemini has no system messages inside the conversation: they are folded into the instruction.
	const transcript = resolveTranscript(context, false);
	const head = getInitialSystemMessage(transcript.messages);
	const rest = head ? transcript.messages.slice(1) : transcript.messages;
	const config: GenerateContentConfig = {};
	if (options.temperature !== undefined) config.temperature = options.temperature;
	if (options.maxTokens !== undefined) config.maxOutputTokens = options.maxTokens;
	const instruction = getSystemMessageText(head);
	if (instruction) config.systemInstruction = sanitizeSurrogates(instruction);
	const tools = getCurrentTools(transcript.messages);
	if (tools.length > 0) {
		const converted = convertTools(tools, supportsStrictTools(model));
		config.tools = converted.tools;
		const mode = functionCallingMode(options.toolChoice, converted.anyStrict);
		if (mode !== undefined) config.toolConfig = { functionCallingConfig: { mode } };
	}
	const thinking = thinkingConfig(model, options.thinking);
	if (thinking) config.thinkingConfig = thinking;
	// One request, one answer: the SDK must not resend a truncated one on its own.
	config.automaticContinuation = false;
	return { model: model.id, contents: convertGoogleContents(rest, model), config };
}
