import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlmServer, startMockLlmServer } from "@tau/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { cliBuilt, runCli, type Sandbox, sandbox } from "./harness.js";

let server: MockLlmServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

/** A local OpenAI-compatible server (no key) serving `models`, and the agent dir pointing `provider` at it. */
async function localServer(
	box: Sandbox,
	provider: string,
	models: (string | Record<string, unknown>)[],
	apiKey?: string,
) {
	server = await startMockLlmServer({ models, idleTimeoutMs: 0, maxLifetimeMs: 0, ...(apiKey ? { apiKey } : {}) });
	writeFileSync(
		join(box.agentDir, "models.json"),
		JSON.stringify({ providers: { [provider]: { baseUrl: server.url("/v1") } } }),
	);
	return server;
}

describe.skipIf(!cliBuilt)("local servers without a catalog entry (built CLI)", () => {
	it("--model ollama/<name> asks the server for its models, then talks to the model it serves", async () => {
		const box = sandbox();
		const local = await localServer(box, "ollama", ["llama3.2", "qwen3:8b"]);
		local.enqueue({ text: "served locally" });
		const result = await runCli(box, ["--model", "ollama/qwen3:8b", "-p", "hi"]);
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("served locally\n");
		expect(local.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			"GET /v1/models",
			"POST /v1/chat/completions",
		]);
		expect(local.requests[1]?.body).toMatchObject({ model: "qwen3:8b", max_tokens: 8192 });
	});

	it.each([
		["llamacpp", { id: "model.gguf", meta: { n_ctx_train: 16384 } }],
		["vllm", { id: "Qwen/Qwen3-8B", max_model_len: 40960 }],
		["lmstudio", { id: "qwen3-8b" }],
	])("--model %s/<name> resolves from that server's list too", async (provider, listed) => {
		const box = sandbox();
		const local = await localServer(box, provider, [listed]);
		local.enqueue({ text: `via ${provider}` });
		const result = await runCli(box, ["--model", `${provider}/${listed.id}`, "-p", "hi"]);
		expect(result.stdout).toBe(`via ${provider}\n`);
		expect(result.stderr).toBe("");
		expect(local.requests[1]?.body).toMatchObject({ model: listed.id });
	});

	it("a server started with a key gets it (VLLM_API_KEY) on the model list as on the chat request", async () => {
		const box = sandbox();
		const local = await localServer(box, "vllm", [{ id: "Qwen/Qwen3-8B", max_model_len: 40960 }], "served-key");
		local.enqueue({ text: "keyed" });
		const result = await runCli(box, ["--model", "vllm/Qwen/Qwen3-8B", "-p", "hi"], {
			env: { VLLM_API_KEY: "served-key" },
		});
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("keyed\n");
		expect(local.requests.map((request) => [request.path, request.headers.authorization])).toEqual([
			["/v1/models", "Bearer served-key"],
			["/v1/chat/completions", "Bearer served-key"],
		]);
	});

	it("llama.cpp is found at LLAMA_BASE_URL without models.json", async () => {
		const box = sandbox();
		server = await startMockLlmServer({ models: ["model.gguf"], idleTimeoutMs: 0, maxLifetimeMs: 0 });
		server.enqueue({ text: "from LLAMA_BASE_URL" });
		const result = await runCli(box, ["--model", "llamacpp/model.gguf", "-p", "hi"], {
			env: { LLAMA_BASE_URL: server.url("/v1") },
		});
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("from LLAMA_BASE_URL\n");
		expect(server.requests.map((request) => request.path)).toEqual(["/v1/models", "/v1/chat/completions"]);
	});

	it("a name the server does not serve is used as a custom id, with a warning", async () => {
		const box = sandbox();
		const local = await localServer(box, "ollama", ["llama3.2"]);
		local.enqueue({ text: "anyway" });
		const custom = await runCli(box, ["--model", "ollama/mistral-small", "-p", "hi"]);
		expect(custom.stdout).toBe("anyway\n");
		expect(custom.stderr).toContain('Model "mistral-small" not found for provider "ollama". Using custom model id.');
	});

	it("an unreachable server is named with the reason", async () => {
		const box = sandbox();
		const local = await localServer(box, "ollama", []);
		const listUrl = local.url("/v1/models");
		await local.close();
		const down = await runCli(box, ["--model", "ollama/other", "-p", "hi"]);
		expect(down.code).not.toBe(0);
		expect(down.stderr).toContain(
			`Could not list the models of Ollama: Ollama is not answering at ${listUrl} (ECONNREFUSED)`,
		);
	});
});
