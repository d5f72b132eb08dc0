import { type AgentTool, runToolCall } from "@tau/agent";
import { fauxAssistantMessage, type JsonObject } from "@tau/ai";
import { CodemodeSandbox } from "@tau/codemode";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";

const sandboxes: CodemodeSandbox[] = [];
afterEach(async () => {
	await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

describe("a sandbox tool routed through @tau/agent's runToolCall", () => {
	it("fails the script with the block reason and never runs the real tool", async () => {
		let ran = 0;
		const deleteTool: AgentTool<any> = {
			name: "delete_everything",
			label: "Delete",
			description: "Deletes everything",
			parameters: Type.Object({ path: Type.String() }),
			execute: async () => {
				ran++;
				return { content: [{ type: "text", text: "deleted" }], details: undefined };
			},
		};
		let id = 0;
		const sandbox = new CodemodeSandbox({
			timeoutMs: 15_000,
			tools: [
				{
					name: deleteTool.name,
					execute: async (args, { signal }) => {
						const outcome = await runToolCall(
							{
								type: "toolCall",
								id: `nested_${++id}`,
								name: deleteTool.name,
								arguments: args as JsonObject,
							},
							{
								tools: [deleteTool],
								assistantMessage: fauxAssistantMessage("nested"),
								context: { messages: [], tools: [deleteTool] },
								signal,
								beforeToolCall: async () => ({ block: true, reason: "deleting is not allowed" }),
							},
						);
						const text = outcome.result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
						if (outcome.isError) throw new Error(text);
						return text;
					},
				},
			],
		});
		sandboxes.push(sandbox);
		const result = await sandbox.execute(`await tools.delete_everything({ path: "/" }); return "survived"`);
		expect(result.ok).toBe(false);
		expect(!result.ok && result.error).toMatchObject({ kind: "script", message: "deleting is not allowed" });
		expect(ran).toBe(0);
		expect(result.calls).toEqual([expect.objectContaining({ name: "delete_everything", status: "error" })]);
	});
});
