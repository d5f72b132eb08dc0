import {
	type AssistantMessageEvent,
	type AssistantMessageEventStream,
	type AuthContext,
	type Context,
	createAssistantMessageEventStream,
	createModels,
	createProvider,
	envApiKeyAuth,
	fauxAssistantMessage,
	fauxProvider,
	InMemoryCredentialStore,
	lazyApi,
	lazyOAuth,
	type Model,
	ModelsError,
	type OAuthCredential,
	type ProviderStreams,
	type StreamOptions,
	withClientIdentity,
	zeroUsage,
} from "@tau/ai";
import { describe, expect, it, vi } from "vitest";
import { latch } from "./support/latch.js";

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };

function model(fields: Partial<Model> = {}): Model {
	return {
		id: "m1",
		name: "M1",
		api: "test-api",
		provider: "acme",
		baseUrl: "https://acme.example/v1",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1000,
		maxTokens: 100,
		...fields,
	};
}

/** A provider implementation that records what it was asked and answers "ok". */
function recordingStreams() {
	const calls: { model: Model; options: StreamOptions | undefined }[] = [];
	const answer = (m: Model, _context: unknown, options?: StreamOptions): AssistantMessageEventStream => {
		calls.push({ model: m, options });
		const out = createAssistantMessageEventStream();
		const message = { ...fauxAssistantMessage("ok"), api: m.api, provider: m.provider, model: m.id };
		queueMicrotask(() => {
			out.push({ type: "start", partial: message });
			out.push({ type: "done", reason: "stop", message });
		});
		return out;
	};
	const streams: ProviderStreams = { stream: answer, streamSimple: answer };
	return { streams, calls };
}

function envContext(env: Record<string, string>): AuthContext {
	return { env: async (name) => env[name], fileExists: async () => false };
}

async function collect(stream: AsyncIterable<AssistantMessageEvent>) {
	const events: AssistantMessageEvent[] = [];
	for await (const e of stream) events.push(e);
	return events;
}

function acme(streams: ProviderStreams, extra: Partial<Parameters<typeof createProvider>[0]> = {}) {
	return createProvider({
		id: "acme",
		auth: { apiKey: envApiKeyAuth("Acme key", ["ACME_KEY"]) },
		models: [model()],
		api: streams,
		...extra,
	});
}

describe("errors are events", () => {
	it("reports an unknown provider as a single error event with zero usage and the call time", async () => {
		const models = createModels();
		const before = Date.now();
		const events = await collect(models.stream(model({ provider: "ghost" }), context));
		expect(events).toHaveLength(1);
		const [event] = events;
		expect(event?.type).toBe("error");
		if (event?.type !== "error") return;
		expect(event.error.errorMessage).toBe("Unknown provider: ghost");
		expect(event.error.usage).toEqual(zeroUsage());
		expect(event.error.timestamp).toBeGreaterThanOrEqual(before);
		await expect(models.complete(model({ provider: "ghost" }), context)).resolves.toMatchObject({
			stopReason: "error",
		});
	});

	it("reports unconfigured providers and non-chat models", async () => {
		const models = createModels({ authContext: envContext({}) });
		models.setProvider(acme(recordingStreams().streams));
		expect((await models.complete(model(), context)).errorMessage).toBe("Provider is not configured: acme");
		const image = { ...model(), type: "image", output: ["image"] } as unknown as Model;
		expect((await models.complete(image, context)).errorMessage).toBe("Model acme/m1 is not a chat model");
	});

	it("turns a failing lazy module load into an error event and loads once", async () => {
		const load = vi.fn(() => Promise.reject(new Error("Cannot find module 'sdk'")));
		const api = lazyApi(load);
		const a = await api.stream(model(), { messages: [] } as never).result();
		const b = await api.streamSimple(model(), { messages: [] } as never).result();
		expect(a).toMatchObject({ stopReason: "error", errorMessage: "Cannot find module 'sdk'" });
		expect(b.errorMessage).toBe("Cannot find module 'sdk'");
		expect(load).toHaveBeenCalledTimes(1);
	});

	it("loads a lazy API module only on the first request", async () => {
		const { streams } = recordingStreams();
		const load = vi.fn(async () => streams);
		const api = lazyApi(load);
		expect(load).not.toHaveBeenCalled();
		expect((await api.stream(model(), { messages: [] } as never).result()).stopReason).toBe("stop");
		expect(load).toHaveBeenCalledTimes(1);
	});

	it("reports a missing per-api implementation", async () => {
		const models = createModels({ authContext: envContext({ ACME_KEY: "k" }) });
		models.setProvider(acme(recordingStreams().streams, { api: { other: recordingStreams().streams } }));
		expect((await models.complete(model(), context)).errorMessage).toBe(
			'Provider acme has no API implementation for "test-api"',
		);
	});

	it("never contacts the provider when the signal is already aborted", async () => {
		const models = createModels();
		const faux = fauxProvider();
		models.setProvider(faux.provider);
		faux.setResponses([fauxAssistantMessage("never")]);
		const controller = new AbortController();
		controller.abort();
		const events = await collect(models.stream(faux.getModel(), context, { signal: controller.signal }));
		expect(events).toHaveLength(1);
		expect(events[0]).toMatchObject({
			type: "error",
			reason: "aborted",
			error: { stopReason: "aborted", errorMessage: "This operation was aborted", content: [] },
		});
		expect(faux.state.callCount).toBe(0);
	});

	it("createProvider without implementations throws the exact message", () => {
		expect(() => createProvider({ id: "x", auth: {}, models: [], api: {}, images: {} })).toThrowError(
			'Provider x: at least one of "api", "images", or "classifiers" is required.',
		);
	});
});

describe("Models reads", () => {
	it("are synchronous, isolate throwing providers and filter by type", () => {
		const models = createModels();
		const { streams } = recordingStreams();
		const image = { ...model({ id: "img" }), type: "image" as const, output: ["image" as const] };
		models.setProvider(createProvider({ id: "acme", auth: {}, models: [model(), image as never], api: streams }));
		models.setProvider({
			...acme(streams),
			id: "broken",
			getModels: () => {
				throw new Error("boom");
			},
			getAllModels: undefined,
		} as never);
		expect(models.getModels().map((m) => m.id)).toEqual(["m1"]);
		expect(models.getModels("broken")).toEqual([]);
		expect(models.getModel("acme", "m1")?.name).toBe("M1");
		expect(models.getModelsOfType("image").map((m) => m.id)).toEqual(["img"]);
		models.setProvider(createProvider({ id: "acme", name: "Replaced", auth: {}, models: [], api: streams }));
		expect(models.getProvider("acme")?.name).toBe("Replaced");
		expect(models.getModels("acme")).toEqual([]);
	});
});

describe("auth resolution", () => {
	it("prefers explicit key, then stored key, then env; stored env merges under request env", async () => {
		const credentials = new InMemoryCredentialStore();
		const models = createModels({ credentials, authContext: envContext({ ACME_KEY: "env-key" }) });
		models.setProvider(acme(recordingStreams().streams));
		expect(await models.getAuth("acme")).toEqual({ auth: { apiKey: "env-key" }, source: "ACME_KEY" });
		await credentials.modify("acme", async () => ({ type: "api_key", key: "stored", env: { A: "1", B: "1" } }));
		expect(await models.getAuth("acme", { env: { B: "2" } })).toEqual({
			auth: { apiKey: "stored" },
			env: { A: "1", B: "2" },
			source: "stored credential",
		});
		expect((await models.getAuth("acme", { apiKey: "explicit" }))?.auth.apiKey).toBe("explicit");
	});

	it("lets a stored credential of an unusable type own the provider (no env fallback)", async () => {
		const credentials = new InMemoryCredentialStore({
			acme: { type: "oauth", access: "a", refresh: "r", expires: Date.now() + 1e9 },
		});
		const models = createModels({ credentials, authContext: envContext({ ACME_KEY: "env-key" }) });
		models.setProvider(acme(recordingStreams().streams));
		expect(await models.getAuth("acme")).toBeUndefined();
	});

	it("merges headers case-insensitively, applies transformHeaders last and hides it from providers", async () => {
		const { streams, calls } = recordingStreams();
		const models = createModels({ authContext: envContext({}) });
		models.setProvider(
			acme(streams, {
				auth: {
					apiKey: {
						name: "k",
						resolve: async () => ({ auth: { apiKey: "k", headers: { "x-foo": "auth", "x-drop": "d" } } }),
					},
				},
			}),
		);
		const m = model({ headers: { "X-Model": "m" } });
		let seen: Record<string, string | null> | undefined;
		await models.complete(m, context, {
			headers: { "X-Foo": "request", "x-drop": null },
			transformHeaders: (headers) => {
				seen = headers;
				return { ...headers, "x-extra": "t" };
			},
		});
		expect(seen).toEqual({ "X-Foo": "request", "x-drop": null, "X-Model": "m" });
		expect(calls[0]?.options?.headers).toEqual({
			"X-Foo": "request",
			"x-drop": null,
			"X-Model": "m",
			"x-extra": "t",
		});
		expect(calls[0]?.options).not.toHaveProperty("transformHeaders");
		expect(calls[0]?.options?.apiKey).toBe("k");
	});

	it("passes request options, env and identity through to the provider", async () => {
		const { streams, calls } = recordingStreams();
		const models = createModels({ identity: { userAgent: "short" } });
		models.setProvider(
			acme(streams, {
				auth: {
					apiKey: { name: "k", resolve: async () => ({ auth: { apiKey: "k" }, env: { A: "auth", B: "auth" } }) },
				},
			}),
		);
		const controller = new AbortController();
		const onPayload = () => undefined;
		await models.completeSimple(model(), context, {
			signal: controller.signal,
			onPayload,
			reasoning: "high",
			env: { B: "request" },
			identity: { version: "1.2.3" },
		});
		const options = calls[0]?.options as Record<string, unknown>;
		expect(options.signal).toBe(controller.signal);
		expect(options.onPayload).toBe(onPayload);
		expect(options.reasoning).toBe("high");
		expect(options.env).toEqual({ A: "auth", B: "request" });
		expect(options.identity).toEqual({ userAgent: "short", version: "1.2.3" });
	});

	it("overrides the base URL for the request only", async () => {
		const { streams, calls } = recordingStreams();
		const models = createModels();
		models.setProvider(
			acme(streams, {
				auth: { apiKey: { name: "k", resolve: async () => ({ auth: { baseUrl: "https://tenant.example/v1" } }) } },
			}),
		);
		const m = models.getModel("acme", "m1")!;
		await models.complete(m, context);
		expect(calls[0]?.model.baseUrl).toBe("https://tenant.example/v1");
		expect(m.baseUrl).toBe("https://acme.example/v1");
	});

	it("checkAuth never refreshes; getAvailable lists configured providers and applies filterModels", async () => {
		const refresh = vi.fn();
		const credentials = new InMemoryCredentialStore({
			acme: { type: "oauth", access: "a", refresh: "r", expires: 0 },
		});
		const models = createModels({ credentials, authContext: envContext({}) });
		const { streams } = recordingStreams();
		models.setProvider(
			acme(streams, {
				auth: { oauth: { name: "Acme", login: vi.fn(), refresh, toAuth: async (c) => ({ apiKey: c.access }) } },
				models: [model(), model({ id: "m2" })],
				filterModels: (list) => list.filter((m) => m.id === "m2"),
			}),
		);
		models.setProvider(
			createProvider({
				id: "other",
				auth: { apiKey: envApiKeyAuth("o", ["NOPE"]) },
				models: [model({ provider: "other" })],
				api: streams,
			}),
		);
		expect(await models.checkAuth("acme")).toEqual({ source: "OAuth", type: "oauth" });
		expect(refresh).not.toHaveBeenCalled();
		expect((await models.getAvailable()).map((m) => `${m.provider}/${m.id}`)).toEqual(["acme/m2"]);
	});

	it("login persists the credential, reports missing login methods, and logout deletes", async () => {
		const credentials = new InMemoryCredentialStore();
		const models = createModels({ credentials });
		const { streams } = recordingStreams();
		models.setProvider(acme(streams, { name: "Acme" }));
		const interaction = { prompt: async () => "typed-key", notify: () => {} };
		expect(await models.login("acme", "api_key", interaction)).toEqual({ type: "api_key", key: "typed-key" });
		expect(await credentials.read("acme")).toEqual({ type: "api_key", key: "typed-key" });
		await expect(models.login("acme", "oauth", interaction)).rejects.toMatchObject({
			code: "auth",
			message: "Acme does not support oauth login",
		});
		await expect(models.login("ghost", "oauth", interaction)).rejects.toBeInstanceOf(ModelsError);
		await models.logout("acme");
		expect(await credentials.list()).toEqual([]);
	});
});

describe("OAuth refresh", () => {
	function oauthSetup(
		refresh: (c: OAuthCredential, signal: AbortSignal) => Promise<OAuthCredential>,
		expires = Date.now() + 60_000,
	) {
		const credentials = new InMemoryCredentialStore({
			acme: { type: "oauth", access: "old", refresh: "r1", expires },
		});
		const models = createModels({ credentials, authContext: envContext({}) });
		const { streams, calls } = recordingStreams();
		models.setProvider(
			acme(streams, {
				auth: { oauth: { name: "Acme", login: vi.fn(), refresh, toAuth: async (c) => ({ apiKey: c.access }) } },
			}),
		);
		return { models, credentials, calls };
	}

	it("refreshes a token expiring within 5 minutes once, even for concurrent requests", async () => {
		const refresh = vi.fn(async (c: OAuthCredential, signal: AbortSignal) => {
			expect(signal.aborted).toBe(false);
			return { ...c, access: "new", refresh: "r2", expires: Date.now() + 3_600_000 };
		});
		const { models, credentials, calls } = oauthSetup(refresh);
		await Promise.all([models.complete(model(), context), models.complete(model(), context)]);
		expect(refresh).toHaveBeenCalledTimes(1);
		expect(calls.map((c) => c.options?.apiKey)).toEqual(["new", "new"]);
		expect(await credentials.read("acme")).toMatchObject({ type: "oauth", access: "new", refresh: "r2" });
	});

	it("refreshes inside the store's modify, and leaves a token valid for more than 5 minutes alone", async () => {
		const refresh = vi.fn(async (c: OAuthCredential) => ({ ...c, access: "new", expires: Date.now() + 3_600_000 }));
		const fresh = oauthSetup(refresh, Date.now() + 6 * 60_000);
		const modify = vi.spyOn(fresh.credentials, "modify");
		expect(await fresh.models.getAuth("acme")).toEqual({ auth: { apiKey: "old" }, source: "OAuth" });
		expect(refresh).not.toHaveBeenCalled();
		expect(modify).not.toHaveBeenCalled();

		const expiring = oauthSetup(refresh, Date.now() + 4 * 60_000);
		const expiringModify = vi.spyOn(expiring.credentials, "modify");
		expect(await expiring.models.getAuth("acme")).toEqual({ auth: { apiKey: "new" }, source: "OAuth" });
		expect(refresh).toHaveBeenCalledTimes(1);
		expect(expiringModify).toHaveBeenCalledTimes(1);
		expect(expiringModify.mock.calls[0]?.[0]).toBe("acme");
	});

	it("bounds the refresh by its own 15 s timeout instead of the caller's signal", async () => {
		const timeout = vi.spyOn(AbortSignal, "timeout");
		const controller = new AbortController();
		let refreshSignal: AbortSignal | undefined;
		const { models } = oauthSetup(async (c, signal) => {
			refreshSignal = signal;
			return { ...c, access: "new", expires: Date.now() + 3_600_000 };
		});
		await models.getAuth("acme", { signal: controller.signal });
		expect(timeout).toHaveBeenCalledWith(15_000);
		expect(refreshSignal).toBe(timeout.mock.results[0]?.value);
		expect(refreshSignal).not.toBe(controller.signal);
		timeout.mockRestore();
	});

	it("loads a lazy OAuth implementation once, on first use", async () => {
		const load = vi.fn(async () => ({
			login: vi.fn(),
			refresh: async (c: OAuthCredential) => c,
			toAuth: async (c: OAuthCredential) => ({ apiKey: `lazy-${c.access}` }),
		}));
		const oauth = lazyOAuth({ name: "Lazy", isSubscription: true, load });
		expect(load).not.toHaveBeenCalled();
		const credential: OAuthCredential = { type: "oauth", access: "a", refresh: "r", expires: 0 };
		expect(await oauth.toAuth(credential)).toEqual({ apiKey: "lazy-a" });
		await oauth.refresh(credential, new AbortController().signal);
		expect(load).toHaveBeenCalledTimes(1);
		expect(oauth.isSubscription).toBe(true);
	});

	it("keeps the credential and fails the request when refresh fails", async () => {
		const { models, credentials } = oauthSetup(async () => {
			throw new Error("invalid_grant");
		});
		await expect(models.getAuth("acme")).rejects.toMatchObject({
			code: "oauth",
			message: "OAuth refresh failed for acme",
		});
		const result = await models.complete(model(), context);
		expect(result).toMatchObject({ stopReason: "error", errorMessage: "OAuth refresh failed for acme" });
		expect(await credentials.read("acme")).toMatchObject({ access: "old", refresh: "r1" });
	});

	it("rejects a refreshed token that stays short of minOAuthValidityMs", async () => {
		const { models } = oauthSetup(async (c) => ({ ...c, access: "new", expires: Date.now() + 600_000 }));
		await expect(models.getAuth("acme", { minOAuthValidityMs: 3_600_000 })).rejects.toMatchObject({
			code: "oauth",
			message: "OAuth refresh returned a token that expires too soon for acme",
		});
	});

	it("names a failing credential store and a failing auth derivation with the cause attached", async () => {
		const storeFailure = new Error("disk full");
		const broken = oauthSetup(async (c) => ({ ...c, access: "new", expires: Date.now() + 3_600_000 }));
		vi.spyOn(broken.credentials, "modify").mockRejectedValue(storeFailure);
		await expect(broken.models.getAuth("acme")).rejects.toMatchObject({
			code: "auth",
			message: "Credential store modify failed for acme",
			cause: storeFailure,
		});

		const derivationFailure = new Error("bad token shape");
		const credentials = new InMemoryCredentialStore({
			acme: { type: "oauth", access: "a", refresh: "r", expires: Date.now() + 3_600_000 },
		});
		const models = createModels({ credentials, authContext: envContext({}) });
		models.setProvider(
			acme(recordingStreams().streams, {
				auth: {
					oauth: {
						name: "Acme",
						login: vi.fn(),
						refresh: async (c) => c,
						toAuth: async () => {
							throw derivationFailure;
						},
					},
				},
			}),
		);
		await expect(models.getAuth("acme")).rejects.toMatchObject({
			code: "oauth",
			message: "OAuth auth derivation failed for acme",
			cause: derivationFailure,
		});
	});

	it("returns undefined when logged out during the refresh", async () => {
		const { promise: gate, release } = latch();
		const { models, credentials } = oauthSetup(async (c) => {
			await gate;
			return { ...c, access: "new", expires: Date.now() + 3_600_000 };
		});
		const auth = models.getAuth("acme");
		const logout = credentials.delete("acme");
		release();
		await logout;
		expect(await auth).toBeUndefined();
	});

	it("lets a request queued behind a running refresh abandon its wait without disturbing the refresh", async () => {
		const { promise: gate, release } = latch();
		const { promise: refreshStarted, release: started } = latch();
		const refresh = vi.fn(async (c: OAuthCredential) => {
			started();
			await gate;
			return { ...c, access: "new", expires: Date.now() + 3_600_000 };
		});
		const { models, credentials } = oauthSetup(refresh);
		const first = models.getAuth("acme");
		await refreshStarted;
		const controller = new AbortController();
		const queued = models.getAuth("acme", { signal: controller.signal });
		controller.abort();
		await expect(queued).rejects.toBeDefined();
		expect(await credentials.read("acme")).toMatchObject({ access: "old" });
		release();
		expect(await first).toEqual({ auth: { apiKey: "new" }, source: "OAuth" });
		expect(await credentials.read("acme")).toMatchObject({ access: "new" });
		expect(refresh).toHaveBeenCalledTimes(1);
	});

	it("lets the caller abandon the lock wait while a started refresh still completes", async () => {
		const { promise: gate, release } = latch();
		const { promise: refreshStarted, release: started } = latch();
		const { models, credentials } = oauthSetup(async (c) => {
			started();
			await gate;
			return { ...c, access: "new", expires: Date.now() + 3_600_000 };
		});
		const controller = new AbortController();
		const pending = models.getAuth("acme", { signal: controller.signal });
		await refreshStarted;
		controller.abort();
		await expect(pending).rejects.toBeDefined();
		release();
		await vi.waitFor(async () => expect(await credentials.read("acme")).toMatchObject({ access: "new" }));
	});
});

describe("InMemoryCredentialStore", () => {
	it("serializes modify per provider, writes nothing on rejection and lists metadata only", async () => {
		const store = new InMemoryCredentialStore();
		const order: string[] = [];
		const first = store.modify("p", async (current) => {
			order.push(`first saw ${current?.type ?? "nothing"}`);
			await new Promise((resolve) => setTimeout(resolve, 0));
			return { type: "api_key", key: "1" };
		});
		const second = store.modify("p", async (current) => {
			order.push(`second saw ${current?.type === "api_key" ? current.key : "nothing"}`);
			return { type: "api_key", key: "2" };
		});
		await Promise.all([first, second]);
		expect(order).toEqual(["first saw nothing", "second saw 1"]);
		await expect(
			store.modify("p", async () => {
				throw new Error("nope");
			}),
		).rejects.toThrow("nope");
		expect(await store.read("p")).toEqual({ type: "api_key", key: "2" });
		expect(await store.list()).toEqual([{ providerId: "p", type: "api_key" }]);
	});
});

describe("refresh()", () => {
	it("is a no-op for static providers, collects dynamic failures and honours abort", async () => {
		const models = createModels({ authContext: envContext({ ACME_KEY: "k" }) });
		const { streams } = recordingStreams();
		models.setProvider(acme(streams));
		expect(await models.refresh()).toEqual({ aborted: false, errors: new Map() });
		models.setProvider(
			createProvider({
				id: "dyn",
				auth: { apiKey: { name: "d", resolve: async () => ({ auth: {} }) } },
				models: [],
				api: streams,
				fetchModels: async () => {
					throw new Error("list failed");
				},
			}),
		);
		const result = await models.refresh();
		expect(result.aborted).toBe(false);
		expect(result.errors.get("dyn")?.message).toBe("list failed");
		const controller = new AbortController();
		controller.abort();
		expect((await models.refresh({ signal: controller.signal })).aborted).toBe(true);
	});

	it("publishes fetched models and restores them from the store offline", async () => {
		const { streams } = recordingStreams();
		const fetched = model({ id: "dynamic", provider: "dyn" });
		const makeProvider = () =>
			createProvider({
				id: "dyn",
				auth: { apiKey: { name: "d", resolve: async () => ({ auth: {} }) } },
				models: [],
				api: streams,
				fetchModels: async () => [fetched],
			});
		const models = createModels();
		models.setProvider(makeProvider());
		await models.refresh();
		expect(models.getModels("dyn").map((m) => m.id)).toEqual(["dynamic"]);
		models.setProvider(makeProvider());
		expect(models.getModels("dyn")).toEqual([]);
		await models.refresh({ allowNetwork: false });
		expect(models.getModels("dyn").map((m) => m.id)).toEqual(["dynamic"]);
	});
});

describe("client identity", () => {
	it("merges identity under the request's identity", async () => {
		const { streams, calls } = recordingStreams();
		const models = createModels({ authContext: envContext({ ACME_KEY: "k" }), identity: { userAgent: "short" } });
		models.setProvider(acme(streams));
		const wrapped = withClientIdentity(models, { version: "9.9.9", attribution: null });
		await wrapped.complete(model(), context, { identity: { userAgent: { custom: "me" } } });
		expect(calls[0]?.options?.identity).toEqual({ userAgent: { custom: "me" }, version: "9.9.9", attribution: null });
		expect(wrapped.getModels()).toHaveLength(1);
	});
});
