import type { Context, GoogleOptions, Tool } from "@tau/ai";
import { normalizeContext } from "@tau/ai";
import { beforeAll, describe, expect, it } from "vitest";
import {
	ADAPTER_LOAD_TIMEOUT_MS,
	assistantMessage,
	body,
	collect,
	loadWireAdapters,
	mockServer,
	readTool,
	transcript,
	wireApi,
	wireAuth,
	wireModel,
} from "./wire-harness.js";

type GenerationBody = {
	systemInstruction?: { parts: { text: string }[] };
	generationConfig?: { thinkingConfig?: Record<string, unknown>; maxOutputTokens?: number };
	tools?: { functionDeclarations: { name: string; parametersJsonSchema: Record<string, unknown> }[] }[];
	toolConfig?: { functionCallingConfig: { mode: string } };
	contents: { role: string; parts: Record<string, unknown>[] }[];
};

const request = (server: Awaited<ReturnType<typeof mockServer>>) =>
	body(server.requests[0]) as unknown as GenerationBody;

beforeAll(() => loadWireAdapters(["google-generative-ai", "google-vertex"]), ADAPTER_LOAD_TIMEOUT_MS);

describe("google-generative-ai requests", () => {
	const api = "google-generative-ai";

	it("asks Gemini 3 for a thinking level and Gemini 2.5 for a token budget; off is budget 0", async () => {
		const server = await mockServer(api);
		server.setFactory(() => ({ text: "ok" }));
		const simple = (id: string, reasoning?: "high" | "low") =>
			collect(
				wireApi(api).streamSimple(wireModel(api, server, { id, reasoning: true }), transcript(), {
					...wireAuth(api),
					...(reasoning ? { reasoning } : {}),
				}),
			);
		await simple("gemini-3-pro-preview", "high");
		await simple("gemini-2.5-flash", "low");
		await simple("gemini-2.5-flash");
		const configs = server.requests.map((entry) => (entry.body as GenerationBody).generationConfig?.thinkingConfig);
		expect(configs).toEqual([
			{ includeThoughts: true, thinkingLevel: "HIGH" },
			{ includeThoughts: true, thinkingBudget: 2048 },
			{ thinkingBudget: 0 },
		]);
		expect(server.requests[0]?.path).toBe("/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse");
	});

	it("sends the system prompt as the instruction, tools as JSON schemas with const as enum, and the tool choice", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "ok" });
		const modeTool: Tool = {
			name: "mode",
			description: "Pick a mode",
			parameters: { type: "object", properties: { kind: { const: "fast" } }, required: ["kind"] },
		};
		const context = transcript({ systemPrompt: "Be brief.", tools: [readTool, modeTool] });
		const options: GoogleOptions = { ...wireAuth(api), toolChoice: "any" };
		await collect(wireApi(api).stream(wireModel(api, server), context, options));
		const sent = request(server);
		expect(sent.systemInstruction?.parts[0]?.text).toBe("Be brief.");
		const declarations = sent.tools?.[0]?.functionDeclarations ?? [];
		expect(declarations.map((declaration) => declaration.name)).toEqual(["read", "mode"]);
		expect(declarations[1]?.parametersJsonSchema).toMatchObject({ properties: { kind: { enum: ["fast"] } } });
		expect(sent.toolConfig?.functionCallingConfig.mode).toBe("ANY");
		expect(sent.contents.every((content) => content.role !== "system")).toBe(true);
	});

	it("replays a model's own thoughts with their signatures and Gemini 3's call ids; another model's lose both", async () => {
		const server = await mockServer(api);
		server.setFactory(() => ({ text: "ok" }));
		const signature = Buffer.from("signed thoughts").toString("base64");
		const answer = (model: string) =>
			assistantMessage(
				api,
				[
					{ type: "thinking", thinking: "private thought", thinkingSignature: signature },
					{
						type: "toolCall",
						id: "call_7",
						name: "read",
						arguments: { path: "a.ts" },
						thoughtSignature: signature,
					},
				],
				{ model },
			);
		const conversation = (model: string): Context => ({
			tools: [readTool],
			messages: [
				{ role: "user", content: "go", timestamp: 1 },
				answer(model),
				{
					role: "toolResult",
					toolCallId: "call_7",
					toolName: "read",
					content: [{ type: "text", text: "data" }],
					isError: false,
					timestamp: 3,
				},
			],
		});
		const own = wireModel(api, server, { id: "gemini-3-pro-preview", reasoning: true });
		await collect(wireApi(api).stream(own, normalizeContext(conversation("gemini-3-pro-preview")), wireAuth(api)));
		await collect(wireApi(api).stream(own, normalizeContext(conversation("gemini-2.5-pro")), wireAuth(api)));
		const [same, other] = server.requests.map((entry) => (entry.body as GenerationBody).contents);
		expect(same?.[1]?.parts).toEqual([
			{ thought: true, text: "private thought", thoughtSignature: signature },
			{ functionCall: { name: "read", args: { path: "a.ts" }, id: "call_7" }, thoughtSignature: signature },
		]);
		expect(same?.[2]?.parts[0]).toMatchObject({
			functionResponse: { name: "read", id: "call_7", response: { output: "data" } },
		});
		expect(other?.[1]?.parts).toEqual([{ functionCall: { name: "read", args: { path: "a.ts" }, id: "call_7" } }]);
	});
});

describe("google-vertex requests", () => {
	const api = "google-vertex";

	it("with an API key calls the publisher model path of the configured endpoint", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "ok" });
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), wireAuth(api)));
		expect(message.stopReason).toBe("stop");
		expect(server.requests[0]?.path).toBe("/v1/publishers/google/models/mock-model:streamGenerateContent?alt=sse");
		expect(server.requests[0]?.headers["x-goog-api-key"]).toBe("test-key");
	});

	it("without a key, Application Default Credentials need a project and a location, named in the error", async () => {
		const server = await mockServer(api);
		const model = wireModel(api, server);
		const noProject = await collect(
			wireApi(api).stream(model, transcript(), { env: { GOOGLE_CLOUD_LOCATION: "us-central1" } }),
		);
		expect(noProject.message.errorMessage).toContain("Vertex AI requires a project ID");
		const noLocation = await collect(
			wireApi(api).stream(model, transcript(), { env: { GOOGLE_CLOUD_PROJECT: "p" } }),
		);
		expect(noLocation.message.errorMessage).toContain("Vertex AI requires a location");
		expect(server.requests).toHaveLength(0);
	});
});
