import {
	type AssistantMessage,
	type AssistantMessageEvent,
	createModels,
	createProvider,
	fauxAssistantMessage,
	fauxProvider,
	type ImageModel,
	lazyStream,
	type Model,
	type RefreshModelsContext,
} from "@tau/ai";
import { describe, expect, it, vi } from "vitest";
import { latch } from "./support/latch.js";

const keyless = { apiKey: { name: "none", resolve: async () => ({ auth: {} }) } };

describe("media requests never reject", () => {
	it("turns unknown providers, missing implementations and throws into error results", async () => {
		const models = createModels();
		const image: ImageModel = {
			id: "img",
			name: "img",
			api: "img-api",
			provider: "pics",
			baseUrl: "",
			input: ["text"],
			output: ["image"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			type: "image",
		};
		expect(await models.generateImages(image, { input: [] })).toMatchObject({
			stopReason: "error",
			errorMessage: "Unknown provider: pics",
			output: [],
		});
		models.setProvider(
			createProvider({
				id: "pics",
				auth: keyless,
				models: [image],
				images: {
					"img-api": {
						generateImages: async () => {
							throw new Error("renderer down");
						},
					},
				},
			}),
		);
		expect(await models.generateImages(image, { input: [] })).toMatchObject({
			stopReason: "error",
			errorMessage: "renderer down",
		});
		const classifier = { ...image, type: "classifier" as const, contextWindow: 10 };
		expect(await models.classify(classifier as never, { state: {}, questions: {} })).toMatchObject({
			stopReason: "error",
			answers: {},
		});
	});
});

describe("refresh publication", () => {
	it("drops the result of a refresh superseded by setProvider", async () => {
		const { promise: gate, release } = latch();
		const { promise: inFetch, release: entered } = latch();
		const faux = fauxProvider();
		const stale: Model = { ...faux.getModel(), id: "stale", provider: "dyn" };
		const slow = createProvider({
			id: "dyn",
			auth: keyless,
			models: [],
			api: faux.provider as never,
			fetchModels: async (_ctx: RefreshModelsContext) => {
				entered();
				await gate;
				return [stale];
			},
		});
		const models = createModels();
		models.setProvider(slow);
		const refreshing = models.refresh();
		await inFetch;
		models.setProvider(slow);
		release();
		await refreshing;
		expect(models.getModels("dyn")).toEqual([]);
	});
});

describe("faux request hooks", () => {
	it("calls onResponse before start, and a throwing onResponse becomes an error event", async () => {
		const models = createModels();
		const faux = fauxProvider();
		models.setProvider(faux.provider);
		faux.setResponses([fauxAssistantMessage("a"), fauxAssistantMessage("b")]);
		const order: string[] = [];
		const stream = models.stream(
			faux.getModel(),
			{ messages: [] },
			{ onResponse: (response) => void order.push(`response ${response.status}`) },
		);
		for await (const event of stream) order.push(event.type);
		expect(order.slice(0, 2)).toEqual(["response 200", "start"]);
		const failed: AssistantMessageEvent[] = [];
		for await (const event of models.stream(
			faux.getModel(),
			{ messages: [] },
			{
				onResponse: () => {
					throw new Error("hook rejected");
				},
			},
		))
			failed.push(event);
		expect(failed.map((e) => e.type)).toEqual(["error"]);
		expect(faux.state.callCount).toBe(2);
	});
});

describe("lazyStream", () => {
	it("forwards inner events to the observer and reports the result", async () => {
		const faux = fauxProvider();
		faux.setResponses([fauxAssistantMessage("hello")]);
		const seen: string[] = [];
		let result: AssistantMessage | undefined;
		const stream = lazyStream(
			faux.getModel(),
			async () => faux.provider.stream(faux.getModel(), { messages: [] } as never),
			{ onEvent: (e) => seen.push(e.type), onResult: (m) => (result = m) },
		);
		const final = await stream.result();
		await vi.waitFor(() => expect(result).toBeDefined());
		expect(seen[0]).toBe("start");
		expect(seen.at(-1)).toBe("done");
		expect(final.content).toEqual([{ type: "text", text: "hello" }]);
		expect(result).toBe(final);
	});

	it("ends with an error event when the inner source ends silently", async () => {
		const faux = fauxProvider();
		const stream = lazyStream(faux.getModel(), async () => ({
			async *[Symbol.asyncIterator]() {},
		}));
		expect(await stream.result()).toMatchObject({
			stopReason: "error",
			errorMessage: "Stream ended without a terminal event",
		});
	});
});
