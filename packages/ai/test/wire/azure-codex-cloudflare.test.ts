import { azureProvider } from "@tau/ai/providers/azure";
import { cloudflareWorkersAIProvider } from "@tau/ai/providers/cloudflare-workers-ai";
import { beforeAll, describe, expect, it } from "vitest";
import {
	ADAPTER_LOAD_TIMEOUT_MS,
	body,
	CODEX_TOKEN,
	collect,
	loadWireAdapters,
	mockServer,
	transcript,
	wireApi,
	wireAuth,
	wireModel,
} from "./wire-harness.js";

beforeAll(
	() => loadWireAdapters(["azure-openai-responses", "openai-codex-responses", "openai-completions"]),
	ADAPTER_LOAD_TIMEOUT_MS,
);

describe("azure-openai-responses requests", () => {
	const api = "azure-openai-responses";

	it("sends the deployment as the model, the key as api-key, and the api-version from the env", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "ok" });
		await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), {
				...wireAuth(api),
				env: {
					AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "other=x, mock-model=prod-deployment",
					AZURE_OPENAI_API_VERSION: "2025-04-01-preview",
				},
			}),
		);
		expect(body(server.requests[0]).model).toBe("prod-deployment");
		expect(server.requests[0]?.path).toBe("/openai/v1/responses?api-version=2025-04-01-preview");
		expect(server.requests[0]?.headers["api-key"]).toBe("test-key");
	});

	it("takes the endpoint from AZURE_OPENAI_BASE_URL when the model has none, and names the settings when missing", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "ok" });
		const model = wireModel(api, server, { baseUrl: "" });
		const configured = await collect(
			wireApi(api).stream(model, transcript(), {
				...wireAuth(api),
				env: { AZURE_OPENAI_BASE_URL: server.url("/openai/v1") },
			}),
		);
		expect(configured.message.stopReason).toBe("stop");
		const missing = await collect(wireApi(api).stream(model, transcript(), wireAuth(api)));
		expect(missing.message.errorMessage).toContain("Set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME");
		expect(server.requests).toHaveLength(1);
	});

	it("the azure provider serves its chat-completions models at the configured endpoint under the deployment name", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "ok" });
		const provider = azureProvider();
		const model = provider.getModels().find((candidate) => candidate.api === "openai-completions")!;
		expect(model.baseUrl).toBe("");
		const { message } = await collect(
			provider.stream(model, transcript(), {
				apiKey: "test-key",
				env: {
					AZURE_OPENAI_BASE_URL: server.url("/openai/v1"),
					AZURE_OPENAI_DEPLOYMENT_NAME_MAP: `${model.id}=chat-deployment`,
				},
			}),
		);
		expect(message.stopReason).toBe("stop");
		expect(server.requests[0]?.path).toBe("/openai/v1/chat/completions");
		expect(body(server.requests[0]).model).toBe("chat-deployment");
	});
});

describe("openai-codex-responses requests (the ChatGPT subscription backend)", () => {
	const api = "openai-codex-responses";

	it("calls /codex/responses with the account from the token and the backend's required fields", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "ok" });
		await collect(wireApi(api).stream(wireModel(api, server), transcript(), { ...wireAuth(api), sessionId: "s-1" }));
		const request = server.requests[0];
		expect(request?.path).toBe("/backend-api/codex/responses");
		expect(request?.headers).toMatchObject({
			authorization: `Bearer ${CODEX_TOKEN}`,
			"chatgpt-account-id": "acct_test",
			originator: "tau",
			"openai-beta": "responses=experimental",
			"session-id": "s-1",
		});
		expect(body(request)).toMatchObject({
			store: false,
			stream: true,
			text: { verbosity: "low" },
			include: ["reasoning.encrypted_content"],
			tool_choice: "auto",
			parallel_tool_calls: true,
			prompt_cache_key: "s-1",
		});
	});

	it("an account id the auth supplies wins; a token without one fails before any request", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "ok" });
		await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), {
				...wireAuth(api),
				headers: { "chatgpt-account-id": "acct_from_auth" },
			}),
		);
		expect(server.requests[0]?.headers["chatgpt-account-id"]).toBe("acct_from_auth");
		const { message } = await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: "not-a-jwt" }),
		);
		expect(message.errorMessage).toContain("Failed to extract the ChatGPT account id");
		expect(server.requests).toHaveLength(1);
	});

	it("explains a usage limit the backend reports without words of its own", async () => {
		const server = await mockServer(api);
		const resetsAt = Math.floor(Date.now() / 1000) + 30 * 60;
		server.enqueue({
			fault: {
				kind: "http",
				status: 429,
				body: { error: { type: "usage_limit_reached", plan_type: "PLUS", resets_at: resetsAt } },
			},
		});
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), wireAuth(api)));
		expect(message.errorMessage).toMatch(
			/^You have hit your ChatGPT usage limit \(plus plan\)\. Try again in ~(29|30) min\.$/,
		);
	});
});

describe("cloudflare base URLs", () => {
	it("fill the account placeholder from the request env, and name it when it is missing", async () => {
		const server = await mockServer("openai-completions");
		server.enqueue({ text: "ok" });
		const provider = cloudflareWorkersAIProvider();
		const catalogModel = provider.getModels().find((candidate) => candidate.api === "openai-completions")!;
		expect(catalogModel.baseUrl).toContain("{CLOUDFLARE_ACCOUNT_ID}");
		const model = { ...catalogModel, baseUrl: server.url("/client/v4/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1") };
		const { message } = await collect(
			provider.stream(model, transcript(), { apiKey: "test-key", env: { CLOUDFLARE_ACCOUNT_ID: "team one" } }),
		);
		expect(message.stopReason).toBe("stop");
		expect(server.requests[0]?.path).toBe("/client/v4/accounts/team%20one/ai/v1/chat/completions");
		const missing = await collect(provider.stream(model, transcript(), { apiKey: "test-key" }));
		expect(missing.message.errorMessage).toBe(
			"CLOUDFLARE_ACCOUNT_ID is required for cloudflare-workers-ai (set it or run /login cloudflare-workers-ai)",
		);
		expect(server.requests).toHaveLength(1);
	});
});
