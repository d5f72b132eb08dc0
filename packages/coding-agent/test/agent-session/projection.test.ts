import { fauxAssistantMessage, fauxToolCall, type SystemMessage } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { createHarness, textOfMessage } from "./harness.js";

type Req = {
	messages: {
		role: string;
		content?: unknown;
		sections?: Record<string, string | null>;
		toolsAdded?: { name: string }[];
	}[];
};

function systemMessages(request: Req) {
	return request.messages.filter((message) => message.role === "system") as unknown as SystemMessage[];
}

describe("canonical projection", () => {
	it("assigning agent.state.messages changes neither the next request nor session.messages", async () => {
		const h = await createHarness();
		h.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await h.session.prompt("first");
		h.session.agent.state.messages = [{ role: "user", content: "INJECTED", timestamp: 1 }];
		await h.session.prompt("second");
		const second = h.requests[1]!;
		const texts = second.messages.filter((m) => m.role === "user").map((m) => textOfMessage(m as never));
		expect(texts).toEqual(["first", "second"]);
		expect(systemMessages(second)).toHaveLength(1);
		expect(h.session.messages.some((m) => m.role === "user" && textOfMessage(m) === "INJECTED")).toBe(false);
	});

	it("entries appended to the SessionManager do reach the next request", async () => {
		const h = await createHarness();
		h.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await h.session.prompt("first");
		h.sessionManager.appendMessage({ role: "user", content: "restored context", timestamp: Date.now() });
		h.sessionManager.appendMessage({
			...fauxAssistantMessage("noted"),
			provider: "faux",
			model: "faux-1",
		});
		await h.session.prompt("second");
		const texts = h.requests[1]!.messages.filter((m) => m.role === "user").map((m) => textOfMessage(m as never));
		expect(texts).toEqual(["first", "restored context", "second"]);
	});

	it("first request carries every section and tool; a tool activation appends only toolsAdded", async () => {
		const h = await createHarness();
		h.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await h.session.prompt("first");
		const [first] = systemMessages(h.requests[0]!);
		expect(Object.keys(first!.sections ?? {})).toEqual(expect.arrayContaining(["preamble", "tools", "cwd"]));
		expect(first!.toolsAdded?.map((tool) => tool.name)).toEqual(["read", "bash", "edit", "write"]);

		h.session.setActiveToolsByName(["read", "bash", "edit", "write", "grep"]);
		await h.session.prompt("second");
		const systems = systemMessages(h.requests[1]!);
		expect(systems).toHaveLength(2);
		const patch = systems[1]!;
		expect(patch.toolsAdded?.map((tool) => tool.name)).toEqual(["grep"]);
		// Only changed sections are re-sent, never the whole prompt.
		const changed = Object.keys(patch.sections ?? {});
		expect(changed).toContain("tools");
		expect(changed).not.toContain("preamble");
		expect(changed).not.toContain("cwd");
		for (const name of changed) expect(patch.sections?.[name]).not.toBe(first!.sections?.[name]);
	});

	it("pi.setActiveTools activates a deferred tool: it is declared in the next request; hidden stays refused", async () => {
		let api: ExtensionAPI | undefined;
		const reach = () => "all" as const;
		const tool = (name: string, exposure: "deferred" | "codemode" | "hidden") => ({
			name,
			label: name,
			description: `${name} tool`,
			parameters: Type.Object({}),
			exposure,
			...(exposure === "deferred" ? { reachesTools: reach } : {}),
			execute: async () => ({ content: [{ type: "text" as const, text: "ok" }], details: undefined }),
		});
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				api = pi;
				pi.registerTool(tool("deferred_x", "deferred"));
				pi.registerTool(tool("codemode_x", "codemode"));
				pi.registerTool(tool("hidden_x", "hidden"));
			},
		});
		h.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await h.session.prompt("first");
		expect(api!.getActiveTools()).not.toContain("deferred_x");
		expect(api!.getAllTools().find((info) => info.name === "deferred_x")?.reachesTools).toBe(reach);
		expect(api!.getAllTools().find((info) => info.name === "codemode_x")?.reachesTools).toBeUndefined();

		api!.setActiveTools([...api!.getActiveTools(), "deferred_x", "codemode_x", "hidden_x"]);
		expect(api!.getActiveTools()).toEqual(expect.arrayContaining(["deferred_x", "codemode_x"]));
		expect(api!.getActiveTools()).not.toContain("hidden_x");
		await h.session.prompt("second");
		const patch = systemMessages(h.requests[1]!)[1]!;
		expect(patch.toolsAdded?.map((added) => added.name)).toEqual(["deferred_x", "codemode_x"]);
	});

	it("a tool activated mid-run, after an unchanged turn, is declared before the run's next request", async () => {
		let api: ExtensionAPI | undefined;
		let toolCalls = 0;
		const h = await createHarness({
			session: { tools: ["ls", "grep"] },
			extension: (pi: ExtensionAPI) => {
				api = pi;
				pi.on("tool_call", () => {
					if (++toolCalls === 2) pi.setActiveTools([...pi.getActiveTools(), "grep"]);
					return undefined;
				});
			},
		});
		h.session.setActiveToolsByName(["ls"]);
		const ls = (id: string) =>
			fauxAssistantMessage(fauxToolCall("ls", { path: "." }, { id }), { stopReason: "toolUse" });
		h.faux.setResponses([ls("c1"), ls("c2"), fauxAssistantMessage("done")]);
		await h.session.prompt("list twice");
		expect(api).toBeDefined();
		expect(h.requests).toHaveLength(3);
		// Between the first two turns nothing changed: no patch. After the activation: the tool and the
		// prompt sections that list tools.
		expect(systemMessages(h.requests[1]!)).toHaveLength(1);
		const third = systemMessages(h.requests[2]!);
		expect(third).toHaveLength(2);
		expect(third[1]!.toolsAdded?.map((tool) => tool.name)).toEqual(["grep"]);
		expect(Object.keys(third[1]!.sections ?? {})).toContain("tools");
	});

	it("changing one prompt section appends a patch with only that section", async () => {
		let rules = "first rules";
		const h = await createHarness({ loader: { appendSystemPromptOverride: () => [rules] } });
		h.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await h.session.prompt("first");
		rules = "second rules";
		await h.session.resourceLoader.reload();
		await h.session.prompt("second");
		const systems = systemMessages(h.requests[1]!);
		expect(systems).toHaveLength(2);
		expect(Object.keys(systems[1]!.sections ?? {})).toEqual(["addendum"]);
		expect(systems[1]!.sections?.addendum).toContain("second rules");
		expect(systems[1]!.toolsAdded).toBeUndefined();
	});

	it("before_agent_start systemPrompt forces one leading system message for that run only", async () => {
		let force = true;
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("before_agent_start", () => (force ? { systemPrompt: "FORCED PROMPT" } : undefined));
			},
		});
		h.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await h.session.prompt("first");
		const forced = systemMessages(h.requests[0]!);
		expect(forced).toHaveLength(1);
		expect(forced[0]!.content).toBe("FORCED PROMPT");
		expect(h.requests[0]!.messages[0]!.role).toBe("system");
		// The transcript still stores the section state.
		const stored = h.session.messages.filter((m) => m.role === "system") as SystemMessage[];
		expect(stored[0]!.sections?.preamble).toBeDefined();
		force = false;
		await h.session.prompt("second");
		const normal = systemMessages(h.requests[1]!);
		expect(normal[0]!.content).not.toBe("FORCED PROMPT");
		expect(normal[0]!.sections?.preamble).toBeDefined();
	});
});

describe("persistence", () => {
	it("persists at message_end (never deltas) and before public message_end listeners run", async () => {
		const h = await createHarness();
		h.faux.setResponses([fauxAssistantMessage("a fairly long reply that streams in several deltas")]);
		const entryCountAtEnd: number[] = [];
		h.session.subscribe((event) => {
			if (event.type === "message_end" && event.message.role === "assistant") {
				entryCountAtEnd.push(h.sessionManager.getBranch().filter((e) => e.type === "message").length);
			}
		});
		await h.session.prompt("hi");
		const messages = h.sessionManager.getBranch().filter((e) => e.type === "message");
		expect(messages.map((e) => (e.type === "message" ? e.message.role : ""))).toEqual([
			"system",
			"user",
			"assistant",
		]);
		expect(entryCountAtEnd).toEqual([3]);
		expect(h.events.filter((e) => e.type === "message_update").length).toBeGreaterThan(1);
	});

	it("a throwing subscriber neither breaks the run nor prevents persistence", async () => {
		const h = await createHarness();
		h.faux.setResponses([fauxAssistantMessage("still saved")]);
		h.session.subscribe(() => {
			throw new Error("listener bug");
		});
		await h.session.prompt("hi");
		expect(h.session.getLastAssistantText()).toBe("still saved");
		expect(h.sessionManager.getBranch().some((e) => e.type === "message" && e.message.role === "assistant")).toBe(
			true,
		);
	});

	it("custom messages are persisted as custom_message entries", async () => {
		const h = await createHarness();
		await h.session.sendCustomMessage({ customType: "note", content: "hello", display: true });
		const entry = h.sessionManager.getBranch().at(-1);
		expect(entry).toMatchObject({ type: "custom_message", customType: "note", content: "hello", display: true });
	});

	it("a tool_call handler sees the requesting assistant message in ctx.sessionManager", async () => {
		let seen: string | undefined;
		const h = await createHarness({
			session: { tools: ["ls"] },
			extension: (pi: ExtensionAPI) => {
				pi.on("tool_call", (_event, ctx) => {
					const last = ctx.sessionManager.getBranch().at(-1);
					seen = last?.type === "message" ? last.message.role : last?.type;
					return undefined;
				});
			},
		});
		h.faux.setResponses([
			fauxAssistantMessage(fauxToolCall("ls", { path: "." }), { stopReason: "toolUse" }),
			fauxAssistantMessage("done"),
		]);
		await h.session.prompt("list");
		expect(seen).toBe("assistant");
	});

	it("sendMessage with triggerTurn:false during a tool batch lands after the tool results", async () => {
		let api: ExtensionAPI | undefined;
		const h = await createHarness({
			session: { tools: ["ls"] },
			extension: (pi: ExtensionAPI) => {
				api = pi;
				pi.on("tool_call", () => {
					pi.sendMessage({ customType: "side", content: "noted", display: false }, { triggerTurn: false });
					return undefined;
				});
			},
		});
		expect(api).toBeDefined();
		h.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("ls", { path: "." }), fauxToolCall("ls", { path: "." })], {
				stopReason: "toolUse",
			}),
			fauxAssistantMessage("done"),
		]);
		await h.session.prompt("list");
		const kinds = h.sessionManager
			.getBranch()
			.filter((e) => e.type === "message" || e.type === "custom_message")
			.map((e) => (e.type === "message" ? e.message.role : e.type));
		expect(kinds).toEqual([
			"system",
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"custom_message",
			"custom_message",
			"assistant",
		]);
	});
});
