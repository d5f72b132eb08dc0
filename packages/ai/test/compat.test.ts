import type { ImageModel, Model } from "@tau/ai";
import {
	complete,
	completeSimple,
	fauxAssistantMessage,
	findEnvKeys,
	generateImages,
	generateImagesOpenRouter,
	getApiProvider,
	getApiProviders,
	getEnvApiKey,
	getImageProviders,
	getImagesApiProvider,
	getModel,
	getModels,
	getProviders,
	registerApiProvider,
	registerFauxProvider,
	registerImagesApiProvider,
	resetApiProviders,
	stream,
	streamOpenAICompletions,
	streamSimple,
	unregisterApiProviders,
} from "@tau/ai/compat";
import { afterEach, describe, expect, it } from "vitest";
import { API_KEY, body, collect, mockServer, transcript, wireModel } from "./wire/wire-harness.js";

const user = { messages: [{ role: "user" as const, content: "Hello", timestamp: 1 }] };

afterEach(() => resetApiProviders());

describe("@tau/ai/compat global requests (docs/ai.md, the pi-ai compatibility entry)", () => {
	it("registerFauxProvider makes its API reachable through stream/complete until unregistered", async () => {
		const faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage("first"), fauxAssistantMessage("second")]);
		const model = faux.getModel();
		const { message } = await collect(stream(model, user));
		expect(message.content).toEqual([{ type: "text", text: "first" }]);
		expect((await completeSimple(model, { systemPrompt: "Be brief.", ...user })).content).toEqual([
			{ type: "text", text: "second" },
		]);
		expect(faux.state.callCount).toBe(2);
		faux.unregister();
		expect(getApiProvider(model.api)).toBeUndefined();
		expect(() => stream(model, user)).toThrow(`No API provider registered for api: ${model.api}`);
	});

	it("a registered implementation refuses a model of another API, and unregistering goes by source id", () => {
		const faux = registerFauxProvider();
		const other = registerFauxProvider();
		const registered = getApiProvider(faux.api)!;
		expect(() => registered.stream(other.getModel(), transcript())).toThrow(
			`Mismatched api: ${other.api} expected ${faux.api}`,
		);
		registerApiProvider(
			{ api: "custom-api", stream: registered.stream, streamSimple: registered.streamSimple },
			"ext",
		);
		unregisterApiProviders("ext");
		expect(getApiProvider("custom-api")).toBeUndefined();
		expect(getApiProvider(faux.api)).toBeDefined();
	});

	it("the built-in APIs are registered at load and come back after resetApiProviders", () => {
		const builtins = getApiProviders().map((provider) => provider.api);
		expect(builtins).toEqual(
			expect.arrayContaining(["anthropic-messages", "openai-completions", "openai-responses"]),
		);
		registerFauxProvider();
		unregisterApiProviders("nothing-registered-under-this-id");
		resetApiProviders();
		expect(getApiProviders().map((provider) => provider.api)).toEqual(builtins);
	});

	it("a model of a built-in provider takes its key from the request's environment", async () => {
		const server = await mockServer();
		server.enqueue({ text: "from the catalog model" });
		const model = { ...getModel("groq", getModels("groq")[0]!.id)!, baseUrl: server.url("/v1") };
		const message = await complete(model, user, { env: { GROQ_API_KEY: API_KEY } });
		expect(message.stopReason).toBe("stop");
		expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
	});

	it("a custom provider's model goes to its API's implementation with the environment key added", async () => {
		const server = await mockServer();
		server.enqueue({ text: "custom" });
		const model = wireModel("openai-completions", server, { provider: "openrouter" });
		const { message } = await collect(streamSimple(model, user, { env: { OPENROUTER_API_KEY: API_KEY } }));
		expect(message.stopReason).toBe("stop");
		expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
	});

	it("an override of a built-in API receives built-in providers' models, with the env key", async () => {
		const seen: { api: string; apiKey: string | undefined }[] = [];
		const faux = registerFauxProvider({ api: "openai-completions" });
		faux.setResponses([fauxAssistantMessage("overridden")]);
		const inner = getApiProvider("openai-completions")!;
		registerApiProvider({
			api: "openai-completions",
			stream: (model, context, options) => {
				seen.push({ api: model.api, apiKey: options?.apiKey });
				return inner.stream(model, context, options);
			},
			streamSimple: inner.streamSimple,
		});
		const model = getModel("groq", getModels("groq")[0]!.id)!;
		const message = await complete(model, user, { env: { GROQ_API_KEY: "from-env" } });
		expect(message.content).toEqual([{ type: "text", text: "overridden" }]);
		expect(seen).toEqual([{ api: "openai-completions", apiKey: "from-env" }]);
	});

	it("the per-API stream functions are the adapters themselves: the caller passes the key", async () => {
		const server = await mockServer();
		server.enqueue({ text: "direct" });
		const { message } = await collect(
			streamOpenAICompletions(wireModel("openai-completions", server) as Model<"openai-completions">, transcript(), {
				apiKey: API_KEY,
			}),
		);
		expect(message.content).toEqual([{ type: "text", text: "direct" }]);
	});

	it("getProviders lists the shipped catalogs", () => {
		expect(getProviders()).toEqual(expect.arrayContaining(["anthropic", "openai", "openrouter"]));
		expect(getImageProviders().every((provider) => getProviders().includes(provider))).toBe(true);
	});
});

describe("environment keys", () => {
	it("findEnvKeys lists the set key variables in lookup order; getEnvApiKey skips Anthropic's bearer token", () => {
		const env = { ANTHROPIC_AUTH_TOKEN: "bearer", ANTHROPIC_API_KEY: "key", OPENAI_API_KEY: "" };
		expect(findEnvKeys("anthropic", env)).toEqual(["ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_API_KEY"]);
		expect(getEnvApiKey("anthropic", env)).toBe("key");
		expect(getEnvApiKey("anthropic", { ANTHROPIC_AUTH_TOKEN: "bearer" })).toBeUndefined();
		expect(findEnvKeys("openai", env)).toBeUndefined();
		expect(getEnvApiKey("moonshotai-cn", { MOONSHOT_API_KEY: "m" })).toBe("m");
		expect(findEnvKeys("no-such-provider", env)).toBeUndefined();
	});

	it("Bedrock reports ambient AWS credentials as <authenticated>, but only a complete pair of static keys", () => {
		expect(getEnvApiKey("amazon-bedrock", { AWS_PROFILE: "dev" })).toBe("<authenticated>");
		expect(getEnvApiKey("amazon-bedrock", { AWS_ACCESS_KEY_ID: "id" })).toBeUndefined();
		expect(getEnvApiKey("amazon-bedrock", { AWS_ACCESS_KEY_ID: "id", AWS_SECRET_ACCESS_KEY: "s" })).toBe(
			"<authenticated>",
		);
	});
});

describe("image generation over OpenRouter", () => {
	const imageModel = (baseUrl: string): ImageModel => ({
		id: "image-model",
		name: "Image model",
		api: "openrouter-images",
		provider: "openrouter",
		type: "image",
		baseUrl,
		input: ["text"],
		output: ["image", "text"],
		cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
	});

	it("sends one non-streaming chat request for both modalities and decodes data-URL images", async () => {
		const server = await mockServer();
		server.enqueue({
			raw: [
				JSON.stringify({
					id: "gen-1",
					object: "chat.completion",
					created: 1,
					model: "image-model",
					choices: [
						{
							index: 0,
							finish_reason: "stop",
							message: {
								role: "assistant",
								content: "A cat.",
								images: [
									{ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
									{ type: "image_url", image_url: { url: "https://example.com/not-inline.png" } },
								],
							},
						},
					],
					usage: { prompt_tokens: 10, completion_tokens: 1000, total_tokens: 1010 },
				}),
			],
			headers: { "content-type": "application/json" },
		});
		const result = await generateImages(
			imageModel(server.url("/v1")),
			{ input: [{ type: "text", text: "Draw a cat" }] },
			{ apiKey: API_KEY },
		);
		expect(result).toMatchObject({
			stopReason: "stop",
			responseId: "gen-1",
			output: [
				{ type: "text", text: "A cat." },
				{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
			],
			usage: { input: 10, output: 1000, totalTokens: 1010 },
		});
		expect(result.usage?.cost.output).toBeCloseTo(0.002);
		expect(body(server.requests[0])).toMatchObject({
			model: "image-model",
			stream: false,
			modalities: ["image", "text"],
			messages: [{ role: "user", content: [{ type: "text", text: "Draw a cat" }] }],
		});
	});

	it("failures are results, not rejections; an unknown image API throws as in pi", async () => {
		const server = await mockServer();
		server.enqueue({ fault: { kind: "http", status: 500, message: "image backend down" } });
		const model = imageModel(server.url("/v1"));
		expect(await generateImagesOpenRouter(model, { input: [] })).toMatchObject({
			stopReason: "error",
			errorMessage: "No API key for provider: openrouter",
		});
		const failed = await generateImagesOpenRouter(model, { input: [] }, { apiKey: API_KEY });
		expect(failed.stopReason).toBe("error");
		expect(failed.errorMessage).toContain("image backend down");
		await expect(generateImages({ ...model, api: "no-such-images-api" }, { input: [] })).rejects.toThrow(
			"No API provider registered for api: no-such-images-api",
		);
		registerImagesApiProvider({ api: "other-images", generateImages: generateImagesOpenRouter });
		expect(() => getImagesApiProvider("other-images")!.generateImages(model, { input: [] })).toThrow(
			"Mismatched api: openrouter-images expected other-images",
		);
	});
});
