import {
	type AssistantMessage,
	type FauxResponseStep,
	fauxAssistantMessage,
	fauxToolCall,
	getCurrentTools,
} from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import type { AnyToolDefinition } from "../../src/core/extensions/index.js";
import { createHarness, textOfMessage } from "../agent-session/harness.js";

/** A tool that records the arguments `execute` received and optionally marks its result terminating. */
function probeTool(name: string, calls: unknown[], extra: Partial<AnyToolDefinition> = {}): AnyToolDefinition {
	return {
		name,
		label: name,
		description: `${name} probe`,
		parameters: Type.Object({ value: Type.String() }),
		execute: async (_id, params) => {
			calls.push(params);
			return { content: [{ type: "text", text: `${name} ran` }], details: undefined };
		},
		...extra,
	};
}

const toolUse = (...calls: ReturnType<typeof fauxToolCall>[]) => fauxAssistantMessage(calls, { stopReason: "toolUse" });

/** A faux step that records the tool names declared to the model in that request. */
function declaring(seen: string[][], reply: AssistantMessage): FauxResponseStep {
	return (context) => {
		seen.push(getCurrentTools(context.messages).map((tool) => tool.name));
		return reply;
	};
}

function toolResults(messages: readonly object[]) {
	return messages.filter((message) => (message as { role: string }).role === "toolResult") as {
		toolName: string;
		isError: boolean;
		content: unknown;
	}[];
}

describe("terminate", () => {
	it("skips the follow-up request only when every finalized result of the batch is terminating", async () => {
		const terminating = (name: string): AnyToolDefinition => ({
			...probeTool(name, []),
			execute: async () => ({ content: [{ type: "text", text: "stop" }], details: undefined, terminate: true }),
		});
		for (const mixed of [true, false]) {
			const h = await createHarness({
				session: { customTools: [terminating("stopper"), probeTool("plain", [])] },
			});
			const second = mixed ? "plain" : "stopper";
			h.faux.setResponses([
				toolUse(
					fauxToolCall("stopper", { value: "a" }, { id: "c1" }),
					fauxToolCall(second, { value: "b" }, { id: "c2" }),
				),
				fauxAssistantMessage("after the batch"),
			]);
			await h.session.prompt("go");
			expect(h.requests.length).toBe(mixed ? 2 : 1);
			expect(h.faux.state.callCount).toBe(mixed ? 2 : 1);
		}
	});

	it("a blocked call is terminating when tool_call says so", async () => {
		const h = await createHarness({
			session: { customTools: [probeTool("plain", [])] },
			extension: (pi: ExtensionAPI) => {
				pi.on("tool_call", () => ({ block: true, terminate: true }));
			},
		});
		h.faux.setResponses([toolUse(fauxToolCall("plain", { value: "a" }, { id: "c1" })), fauxAssistantMessage("more")]);
		await h.session.prompt("go");
		expect(h.requests.length).toBe(1);
		const [result] = toolResults(h.session.messages);
		expect(result).toMatchObject({ isError: true });
		expect(textOfMessage(result!)).toBe("Tool execution was blocked");
	});
});

describe("argument pipeline", () => {
	const typed = (calls: unknown[]): AnyToolDefinition => ({
		...probeTool("typed", calls),
		parameters: Type.Object({ count: Type.Number(), tags: Type.Array(Type.String()) }),
	});

	it("a validation failure is an error result with '- path: problem' lines; tool_call is not fired", async () => {
		const calls: unknown[] = [];
		const gated: string[] = [];
		const h = await createHarness({
			session: { customTools: [typed(calls)] },
			extension: (pi: ExtensionAPI) => {
				pi.on("tool_call", (event) => {
					gated.push(event.toolName);
					return undefined;
				});
			},
		});
		h.faux.setResponses([
			toolUse(fauxToolCall("typed", { count: "many" }, { id: "c1" })),
			fauxAssistantMessage("ok"),
		]);
		await h.session.prompt("go");
		expect(calls).toEqual([]);
		expect(gated).toEqual([]);
		const [result] = toolResults(h.session.messages);
		expect(result?.isError).toBe(true);
		const problems = textOfMessage(result!)
			.split("\n")
			.map((line) => line.trim())
			.filter((line) => line.startsWith("- "));
		expect(problems.some((line) => line.startsWith("- count: "))).toBe(true);
		expect(problems.some((line) => line.includes("tags"))).toBe(true);
	});

	it('coerces "5" to 5 and a single value to a one-item array before the gate and execute', async () => {
		const calls: unknown[] = [];
		const gated: unknown[] = [];
		const h = await createHarness({
			session: { customTools: [typed(calls)] },
			extension: (pi: ExtensionAPI) => {
				pi.on("tool_call", (event) => {
					gated.push(structuredClone(event.input));
					return undefined;
				});
			},
		});
		h.faux.setResponses([
			toolUse(fauxToolCall("typed", { count: "5", tags: "solo" }, { id: "c1" })),
			fauxAssistantMessage("ok"),
		]);
		await h.session.prompt("go");
		expect(gated).toEqual([{ count: 5, tags: ["solo"] }]);
		expect(calls).toEqual([{ count: 5, tags: ["solo"] }]);
	});

	it("never executes tool calls of a length-stopped assistant message", async () => {
		const calls: unknown[] = [];
		const h = await createHarness({ session: { customTools: [probeTool("plain", calls)] } });
		h.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("plain", { value: "cut" }, { id: "c1" })], { stopReason: "length" }),
			fauxAssistantMessage("re-issued"),
		]);
		await h.session.prompt("go");
		expect(calls).toEqual([]);
		const results = toolResults(h.session.messages);
		expect(results.length).toBe(1);
		expect(results[0]?.isError).toBe(true);
		expect(textOfMessage(results[0]!)).toMatch(/truncated/i);
	});
});

describe("exposure and activation", () => {
	it("activates direct and model-only tools on registration; codemode/deferred are callable, never declared; hidden is nothing", async () => {
		const seen: string[][] = [];
		const exposures = ["direct", "model-only", "codemode", "deferred", "hidden"] as const;
		const h = await createHarness({
			session: { noTools: "builtin" },
			extension: (pi: ExtensionAPI) => {
				for (const exposure of exposures) pi.registerTool(probeTool(`t_${exposure}`, [], { exposure }));
			},
		});
		expect(h.session.getActiveToolNames()).toEqual(["t_direct", "t_model-only"]);
		expect(h.session.getCallableToolNames().sort()).toEqual(["t_codemode", "t_deferred", "t_direct"]);
		h.faux.setResponses([declaring(seen, fauxAssistantMessage("one"))]);
		await h.session.prompt("go");
		expect(seen[0]?.sort()).toEqual(["t_direct", "t_model-only"]);

		// setActiveTools ignores hidden and unknown names and keeps the order of tools that stay.
		h.session.setActiveToolsByName(["t_model-only", "t_hidden", "nope", "t_codemode"]);
		expect(h.session.getActiveToolNames()).toEqual(["t_model-only", "t_codemode"]);
		expect(h.session.getCallableToolNames()).not.toContain("t_hidden");
	});

	it("a defaultActive:false tool stays inactive until named by setActiveTools or the session's tool list", async () => {
		const lazy = probeTool("lazy", [], { defaultActive: false });
		const h = await createHarness({
			session: { noTools: "builtin" },
			extension: (pi: ExtensionAPI) => {
				pi.registerTool(lazy);
			},
		});
		expect(h.session.getActiveToolNames()).toEqual([]);
		expect(h.session.getAllTools().map((tool) => tool.name)).toContain("lazy");
		h.session.setActiveToolsByName(["lazy"]);
		expect(h.session.getActiveToolNames()).toEqual(["lazy"]);

		const named = await createHarness({
			session: { tools: ["lazy"] },
			extension: (pi: ExtensionAPI) => {
				pi.registerTool(lazy);
			},
		});
		expect(named.session.getActiveToolNames()).toEqual(["lazy"]);
	});
});
