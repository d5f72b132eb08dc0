import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normalizeContext } from "@tau/ai";
import { startMockLlmServer } from "@tau/testkit";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
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

const api = "bedrock-converse-stream";

afterEach(() => {
	vi.unstubAllEnvs();
});

/** The `Credential=<key id>/<date>/<region>/<service>/aws4_request` scope of a SigV4 signature. */
function signatureScope(authorization: string | undefined): string[] {
	const scope = /Credential=([^,]+),/.exec(authorization ?? "")?.[1] ?? "";
	const [keyId, , region, service] = scope.split("/");
	return [keyId ?? "", region ?? "", service ?? ""];
}

beforeAll(() => loadWireAdapters(["bedrock-converse-stream"]), ADAPTER_LOAD_TIMEOUT_MS);

// First in the file: the SDK warns once per process, so an earlier client would hide the warning.
describe("bedrock-converse-stream in a terminal", () => {
	it("builds its client without the SDK's Node-version warning and leaves the environment as it was", async () => {
		const warnings: string[] = [];
		const onWarning = (warning: Error) => warnings.push(warning.message);
		process.on("warning", onWarning);
		try {
			const server = await mockServer(api);
			server.enqueue({ text: "quiet" });
			await collect(wireApi(api).stream(wireModel(api, server, { id: "quiet-model" }), transcript(), wireAuth(api)));
			await new Promise((resolve) => setImmediate(resolve));
		} finally {
			process.off("warning", onWarning);
		}
		expect(warnings.filter((message) => message.includes("NodeVersionSupportWarning"))).toEqual([]);
		expect(process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED).toBeUndefined();
	});
});

describe("bedrock-converse-stream credentials (the AWS SDK's chain)", () => {
	it("signs with a named profile of the shared credentials file, in the configured region", async () => {
		const dir = mkdtempSync(join(tmpdir(), "tau-aws-"));
		writeFileSync(
			join(dir, "credentials"),
			"[work]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = s3cret\n",
		);
		writeFileSync(join(dir, "config"), "[profile work]\nregion = eu-west-3\n");
		vi.stubEnv("AWS_SHARED_CREDENTIALS_FILE", join(dir, "credentials"));
		vi.stubEnv("AWS_CONFIG_FILE", join(dir, "config"));
		const server = await startMockLlmServer({ apiKey: "AKIDPROFILE", idleTimeoutMs: 0, maxLifetimeMs: 0 });
		try {
			server.enqueue({ text: "signed" });
			const { message } = await collect(
				wireApi(api).stream(wireModel(api, server), transcript(), {
					env: { AWS_PROFILE: "work", AWS_REGION: "eu-west-3" },
				}),
			);
			expect(message.stopReason).toBe("stop");
			expect(signatureScope(server.requests[0]?.headers.authorization)).toEqual([
				"AKIDPROFILE",
				"eu-west-3",
				"bedrock",
			]);
			expect(server.requests[0]?.path).toBe("/model/mock-model/converse-stream");
		} finally {
			await server.close();
		}
	});

	it("sends a Bedrock API key as a bearer token instead of signing", async () => {
		const server = await startMockLlmServer({ apiKey: "bedrock-api-key", idleTimeoutMs: 0, maxLifetimeMs: 0 });
		try {
			server.enqueue({ text: "ok" });
			await collect(
				wireApi(api).stream(wireModel(api, server), transcript(), {
					env: { AWS_BEARER_TOKEN_BEDROCK: "bedrock-api-key" },
				}),
			);
			expect(server.requests[0]?.headers.authorization).toBe("Bearer bedrock-api-key");
		} finally {
			await server.close();
		}
	});

	it("adds the caller's headers before signing but never replaces the signature's own", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "ok" });
		await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), {
				...wireAuth(api),
				headers: { "x-team": "blue", authorization: "Bearer stolen", "x-amz-date": "19700101T000000Z" },
			}),
		);
		const headers = server.requests[0]?.headers ?? {};
		expect(headers["x-team"]).toBe("blue");
		expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
		expect(headers["x-amz-date"]).not.toBe("19700101T000000Z");
	});
});

describe("bedrock-converse-stream requests for Claude", () => {
	const claude = (server: Awaited<ReturnType<typeof mockServer>>, id: string) =>
		wireModel(api, server, { id, name: "Claude", reasoning: true, maxTokens: 64_000, contextWindow: 200_000 });

	it("puts cache points after the system prompt and the last user turn", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "ok" });
		const model = claude(server, "us.anthropic.claude-sonnet-4-5-20250929-v1:0");
		await collect(
			wireApi(api).stream(model, transcript({ systemPrompt: "Be brief.", tools: [readTool] }), wireAuth(api)),
		);
		const sent = body(server.requests[0]) as {
			system: unknown[];
			messages: { content: unknown[] }[];
			toolConfig: { tools: { toolSpec: { name: string } }[] };
		};
		expect(sent.system).toEqual([{ text: "Be brief." }, { cachePoint: { type: "default" } }]);
		expect(sent.messages.at(-1)?.content.at(-1)).toEqual({ cachePoint: { type: "default" } });
		expect(sent.toolConfig.tools[0]?.toolSpec.name).toBe("read");
	});

	it("asks budget models for a thinking budget with interleaved thinking, adaptive ones for an effort", async () => {
		const server = await mockServer(api);
		server.setFactory(() => ({ text: "ok" }));
		for (const id of ["anthropic.claude-sonnet-4-5-20250929-v1:0", "anthropic.claude-opus-4-6-v1"]) {
			await collect(
				wireApi(api).streamSimple(claude(server, id), transcript(), { ...wireAuth(api), reasoning: "medium" }),
			);
		}
		const fields = server.requests.map(
			(entry) => (entry.body as { additionalModelRequestFields?: unknown }).additionalModelRequestFields,
		);
		expect(fields[0]).toEqual({
			thinking: { type: "enabled", budget_tokens: 8192, display: "summarized" },
			anthropic_beta: ["interleaved-thinking-2025-05-14"],
		});
		expect(fields[1]).toEqual({
			thinking: { type: "adaptive", display: "summarized" },
			output_config: { effort: "medium" },
		});
		const first = body(server.requests[0]) as { inferenceConfig: { maxTokens: number } };
		expect(first.inferenceConfig.maxTokens).toBeGreaterThan(8192);
	});

	it("keeps redacted reasoning as its encrypted bytes and replays them to the same model", async () => {
		const server = await mockServer(api);
		server.enqueue({ redactedThinking: "opaque-bytes", text: "done" }, { text: "next" });
		const model = claude(server, "anthropic.claude-opus-4-6-v1");
		const first = await collect(wireApi(api).stream(model, transcript(), wireAuth(api)));
		const thinking = first.message.content[0];
		expect(thinking).toMatchObject({ type: "thinking", redacted: true });
		expect(thinking?.type === "thinking" && Buffer.from(thinking.thinkingSignature ?? "", "base64").toString()).toBe(
			"opaque-bytes",
		);
		const replay = normalizeContext({
			messages: [
				{ role: "user", content: "first", timestamp: 1 },
				assistantMessage(api, first.message.content, { model: model.id }),
				{ role: "user", content: "second", timestamp: 3 },
			],
		});
		await collect(wireApi(api).stream(model, replay, wireAuth(api)));
		expect(server.requests[1]?.rawBody).toContain(
			`"redactedContent":"${Buffer.from("opaque-bytes").toString("base64")}"`,
		);
	});
});
