import { normalizeContext } from "@tau/ai";
import { githubCopilotProvider } from "@tau/ai/providers/github-copilot";
import { describe, expect, it } from "vitest";
import { assistantMessage, collect, imageTranscript, mockServer } from "./wire-harness.js";

describe("github-copilot requests", () => {
	it("carry Copilot's editor headers and who started the turn, the vision flag with images, the caller's header last", async () => {
		const server = await mockServer("openai-completions");
		server.setFactory(() => ({ text: "ok" }));
		const provider = githubCopilotProvider();
		const catalogModel = provider.getModels().find((model) => model.api === "openai-completions")!;
		const model = { ...catalogModel, baseUrl: server.url("/v1") };
		const auth = { apiKey: "test-key", headers: { ...model.headers } };
		await collect(provider.stream(model, imageTranscript(), auth));
		const followUp = normalizeContext({
			messages: [
				{ role: "user", content: "read it", timestamp: 1 },
				assistantMessage("openai-completions", [{ type: "toolCall", id: "c1", name: "read", arguments: {} }]),
				{
					role: "toolResult",
					toolCallId: "c1",
					toolName: "read",
					content: [{ type: "text", text: "x" }],
					isError: false,
					timestamp: 3,
				},
			],
		});
		await collect(
			provider.stream(model, followUp, { ...auth, headers: { ...auth.headers, "Openai-Intent": "mine" } }),
		);
		const [first, second] = server.requests.map((request) => request.headers);
		expect(first).toMatchObject({
			"copilot-integration-id": "vscode-chat",
			"x-initiator": "user",
			"openai-intent": "conversation-edits",
			"copilot-vision-request": "true",
		});
		expect(second).toMatchObject({ "x-initiator": "agent", "openai-intent": "mine" });
		expect(second?.["copilot-vision-request"]).toBeUndefined();
	});
});
