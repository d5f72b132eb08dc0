import * as tau from "@tau/ai";
import {
	expectSameAnswersAsPi,
	type OracleCall,
	oracleTitle,
	piOracle,
	type SeededRandom,
	seededRandom,
} from "@tau/testkit";
import { describe, it } from "vitest";

const oracle = piOracle();

const ERRORS = [
	"prompt is too long: 213462 tokens > 200000 maximum",
	'400 {"type":"error","error":{"type":"request_too_large"}}',
	"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
	"Your input exceeds the context window of this model.",
	"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
	"This model's maximum prompt length is 131072 but the request contains 140000 tokens.",
	"Please reduce the length of the messages or completion.",
	"Input length 140000 exceeds the maximum allowed input length of 131072 tokens.",
	"the request exceeds the available context size, try increasing it",
	"Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of 4096 which is greater than the context length",
	"413: failed to parse request",
	"Anthropic API error (413): request entity too large",
	"Rate limit reached for requests",
	"429 Too Many Requests",
	"Service unavailable: too many tokens",
	"Throttling error: Too many tokens, please wait before trying again.",
	"overloaded_error: Overloaded",
	"500 Internal server error",
	"503 Service Unavailable",
	"Connection error.",
	"fetch failed",
	"terminated",
	"Request timed out.",
	"You exceeded your current quota, please check your plan and billing details.",
	"insufficient_quota",
	"invalid_api_key: Incorrect API key provided",
	"The model `gpt-9` does not exist",
	"Operation aborted",
	"context_length_exceeded",
	"Server requested 120s retry delay (max: 60s).",
	"other",
	"",
];

function assistant(random: SeededRandom): Record<string, unknown> {
	const stopReason = random.pick(["error", "error", "stop", "length", "aborted", "toolUse"]);
	const input = random.pick([0, 1000, 150_000, 250_000]);
	const output = random.pick([0, 0, 500]);
	const message: Record<string, unknown> = {
		role: "assistant",
		content: output > 0 ? [{ type: "text", text: "partial" }] : [],
		api: "openai-completions",
		provider: random.pick(["openai", "zai", "xiaomi", "anthropic"]),
		model: "m",
		usage: {
			input,
			output,
			cacheRead: random.pick([0, 60_000]),
			cacheWrite: 0,
			totalTokens: input + output,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason,
		timestamp: 1,
	};
	if (stopReason === "error" || stopReason === "aborted") message.errorMessage = random.pick(ERRORS);
	return message;
}

function errorCalls(): OracleCall[] {
	const random = seededRandom(41);
	const calls: OracleCall[] = [];
	for (const errorMessage of ERRORS) {
		const message = { ...assistant(random), stopReason: "error", errorMessage };
		calls.push({ fn: "isContextOverflow", args: [message] });
		calls.push({ fn: "isRetryableAssistantError", args: [message] });
	}
	for (let i = 0; i < 400; i++) {
		const message = assistant(random);
		calls.push({ fn: "isContextOverflow", args: [message, random.pick([undefined, 128_000, 200_000])] });
		calls.push({ fn: "isRecoverableLength", args: [message, random.pick([1000, 32_000])] });
		calls.push({ fn: "isRetryableAssistantError", args: [message] });
	}
	return calls;
}

const TOOLS = [
	{
		name: "read",
		description: "Read",
		parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
	},
	{
		name: "edit",
		description: "Edit",
		parameters: {
			type: "object",
			properties: {
				path: { type: "string" },
				count: { type: "integer", minimum: 1 },
				flags: { type: "array", items: { type: "boolean" } },
				mode: { type: "string", enum: ["a", "b"] },
				nested: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
			},
			required: ["path", "count"],
			additionalProperties: false,
		},
	},
	{
		name: "shape",
		description: "Union, bounds and patterns",
		parameters: {
			type: "object",
			properties: {
				item: {
					anyOf: [
						{
							type: "object",
							properties: { kind: { const: "circle" }, r: { type: "number", exclusiveMinimum: 0 } },
							required: ["kind", "r"],
						},
						{
							type: "object",
							properties: { kind: { const: "square" }, side: { type: "integer", maximum: 10 } },
							required: ["kind", "side"],
						},
					],
				},
				name: { type: "string", minLength: 2, maxLength: 5, pattern: "^[a-z]+$" },
				tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 2, uniqueItems: true },
				either: { anyOf: [{ type: "string" }, { type: "array", items: { type: "number" } }] },
				fixed: { const: "v1" },
			},
		},
	},
];

function validationCalls(): OracleCall[] {
	const random = seededRandom(43);
	const values = [
		undefined,
		null,
		"x",
		"42",
		"3.5",
		"true",
		"ABC",
		"abcdef",
		7,
		0,
		-1,
		2.5,
		11,
		true,
		[],
		["true", false],
		["a", "a"],
		["a", "b", "c"],
		{ n: "1" },
		{},
		{ kind: "circle", r: 0 },
		{ kind: "square", side: "12" },
		{ kind: "triangle" },
		{ side: 3 },
		"v1",
	];
	const calls: OracleCall[] = [];
	for (let i = 0; i < 500; i++) {
		const args: Record<string, unknown> = {};
		for (const key of [
			"path",
			"count",
			"flags",
			"mode",
			"nested",
			"extra",
			"item",
			"name",
			"tags",
			"either",
			"fixed",
		]) {
			if (random.next() < 0.6) args[key] = random.pick(values);
		}
		for (const key of Object.keys(args)) if (args[key] === undefined) args[key] = { $undefined: true };
		const toolCall = {
			type: "toolCall",
			id: "t1",
			name: random.pick(["read", "edit", "shape", "shape", "missing"]),
			arguments: args,
		};
		calls.push({ fn: "validateToolCall", args: [TOOLS, toolCall] });
	}
	return calls;
}

function transcriptCalls(): OracleCall[] {
	const random = seededRandom(47);
	const calls: OracleCall[] = [];
	const tool = (name: string, description = name) => ({
		name,
		description,
		parameters: { type: "object", properties: {} },
	});
	for (let i = 0; i < 120; i++) {
		const messages: Record<string, unknown>[] = [];
		for (let k = random.int(0, 6); k > 0; k--) {
			if (random.next() < 0.4) {
				const system: Record<string, unknown> = {
					role: "system",
					content: random.pick(["", "Be brief.", "More."]),
					timestamp: k,
				};
				if (random.next() < 0.5)
					system.toolsAdded = [tool(random.pick(["read", "bash", "edit"]), random.pick(["a", "b"]))];
				if (random.next() < 0.3) system.toolsRemoved = [random.pick(["read", "bash"])];
				if (random.next() < 0.3) system.sections = { rules: random.pick(["r1", null]) };
				messages.push(system);
			} else {
				messages.push({ role: "user", content: "hi", timestamp: k });
			}
		}
		const context = {
			systemPrompt: random.pick([undefined, "", "Base prompt."]),
			tools: random.pick([undefined, [], [tool("read")]]),
			messages,
		};
		for (const key of ["systemPrompt", "tools"]) {
			if ((context as Record<string, unknown>)[key] === undefined) delete (context as Record<string, unknown>)[key];
		}
		calls.push({ fn: "normalizeContext", args: [context] });
		calls.push({ fn: "getCurrentSystemPrompt", args: [messages] });
		calls.push({ fn: "getCurrentTools", args: [messages] });
		calls.push({ fn: "getCurrentSystemMessage", args: [messages] });
		calls.push({ fn: "getInitialSystemMessage", args: [messages] });
		calls.push({ fn: "withoutInitialSystemMessage", args: [messages] });
		calls.push({ fn: "collapseSystemMessages", args: [{ messages }, random.next() < 0.5] });
		calls.push({ fn: "resolveTranscript", args: [{ messages }] });
		calls.push({
			fn: "getToolStateChanges",
			args: [
				[tool("read"), tool("bash", "x")],
				[tool("bash", "y"), tool("edit")],
			],
		});
		const absent = { $undefined: true };
		calls.push({ fn: "createInitialSystemMessage", args: [context.systemPrompt ?? absent, context.tools ?? absent] });
	}
	return calls;
}

describe.skipIf(!oracle.available)(
	oracleTitle(oracle, "pi-ai transcripts, errors and validation against pi 1.6"),
	() => {
		it("overflow, length recovery and retryability answer as pi does", async () => {
			await expectSameAnswersAsPi(oracle, "@earendil-works/pi-ai", tau, errorCalls());
		});

		it("tool argument validation answers as pi does", async () => {
			await expectSameAnswersAsPi(oracle, "@earendil-works/pi-ai", tau, validationCalls());
		});

		it("system-message replay answers as pi does", async () => {
			await expectSameAnswersAsPi(oracle, "@earendil-works/pi-ai", tau, transcriptCalls());
		});
	},
);
