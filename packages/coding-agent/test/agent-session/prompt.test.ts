import { createProvider, envApiKeyAuth, fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { createHarness, eventTypes, gate, heldResponse, noteCommandAndInputLog, textOfMessage } from "./harness.js";

/** Registers provider `locked` (model `locked-1`), whose key variable is never set. */
function registerKeylessProvider(h: Awaited<ReturnType<typeof createHarness>>): void {
	const locked = createProvider({
		id: "locked",
		auth: { apiKey: envApiKeyAuth("Locked", ["TAU_TEST_LOCKED_PROVIDER_KEY_THAT_IS_NOT_SET"]) },
		models: [{ ...h.faux.getModel(), provider: "locked", id: "locked-1" }],
		api: h.faux.provider as never,
	});
	h.modelRuntime.registerProvider("locked", locked);
}

describe("AgentSession.prompt", () => {
	it("runs a simple prompt in the specified event order and resolves after agent_settled", async () => {
		const h = await createHarness();
		h.faux.setResponses([fauxAssistantMessage("hello there")]);
		let settledBeforeResolve = false;
		h.session.subscribe((event) => {
			if (event.type === "agent_settled") settledBeforeResolve = true;
		});
		await h.session.prompt("hi");
		expect(settledBeforeResolve).toBe(true);
		expect(eventTypes(h.events).filter((type) => type !== "message_update" && type !== "entry_appended")).toEqual([
			"agent_start",
			"turn_start",
			"message_start(system)",
			"message_end(system)",
			"message_start(user)",
			"message_end(user)",
			"message_start(assistant)",
			"message_end(assistant)",
			"turn_end",
			"agent_end",
			"agent_settled",
		]);
		expect(h.session.getLastAssistantText()).toBe("hello there");
		expect(h.session.isStreaming).toBe(false);
	});

	it("runs input and before_agent_start handlers before the run starts", async () => {
		const order: string[] = [];
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("input", () => {
					order.push("input");
					return undefined;
				});
				pi.on("before_agent_start", () => {
					order.push("before_agent_start");
					return undefined;
				});
				pi.on("agent_start", () => {
					order.push("agent_start");
				});
			},
		});
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("hi");
		expect(order).toEqual(["input", "before_agent_start", "agent_start"]);
	});

	it("throws while streaming without streamingBehavior, and queues with it", async () => {
		const h = await createHarness();
		const hold = gate();
		h.faux.setResponses([heldResponse(hold, fauxAssistantMessage("first")), fauxAssistantMessage("second")]);
		const running = h.session.prompt("one");
		await hold.started;
		await expect(h.session.prompt("two")).rejects.toThrow(
			"Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.",
		);
		const decisions: string[] = [];
		await h.session.prompt("two", { streamingBehavior: "followUp", preflightResult: (d) => decisions.push(d) });
		expect(decisions).toEqual(["queued"]);
		expect(h.session.getFollowUpMessages()).toEqual(["two"]);
		expect(h.session.pendingMessageCount).toBe(1);
		hold.release();
		await running;
		const users = h.session.messages.filter((m) => m.role === "user").map((m) => textOfMessage(m));
		expect(users).toEqual(["one", "two"]);
		expect(h.session.getFollowUpMessages()).toEqual([]);
		const queueUpdates = h.events.filter((e) => e.type === "queue_update");
		expect(queueUpdates.map((e) => (e.type === "queue_update" ? e.followUp : []))).toEqual([["two"], []]);
	});

	it("delivers steering after the current turn's tool calls and before the next request", async () => {
		const h = await createHarness();
		const hold = gate();
		h.faux.setResponses([
			heldResponse(hold, fauxAssistantMessage(fauxToolCall("ls", { path: "." }), { stopReason: "toolUse" })),
			fauxAssistantMessage("after steering"),
		]);
		const running = h.session.prompt("list");
		await hold.started;
		expect(await h.session.steer("also this")).toBe("queued");
		hold.release();
		await running;
		const roles = h.session.messages.filter((m) => m.role !== "system").map((m) => m.role);
		expect(roles).toEqual(["user", "assistant", "toolResult", "user", "assistant"]);
		const lastRequest = h.requests.at(-1)!;
		expect(lastRequest.messages.at(-1)).toMatchObject({ role: "user" });
		// queue_update on queuing and again when the steering message is delivered.
		const updates = h.events.flatMap((e) => (e.type === "queue_update" ? [e.steering] : []));
		expect(updates).toEqual([["also this"], []]);
	});

	it("clearQueue returns the queued texts and empties the agent queues", async () => {
		const h = await createHarness();
		const hold = gate();
		h.faux.setResponses([heldResponse(hold, fauxAssistantMessage("done"))]);
		const running = h.session.prompt("one");
		await hold.started;
		await h.session.steer("s1");
		await h.session.followUp("f1");
		expect(h.session.clearQueue()).toEqual({ steering: ["s1"], followUp: ["f1"] });
		expect(h.session.agent.hasQueuedMessages()).toBe(false);
		hold.release();
		await running;
		expect(h.faux.state.callCount).toBe(1);
	});

	it("throws while a manual compaction runs", async () => {
		const h = await createHarness({
			settings: { compaction: { enabled: false, reserveTokens: 200, keepRecentTokens: 20 } },
		});
		h.faux.setResponses([fauxAssistantMessage("word ".repeat(400)), fauxAssistantMessage("word ".repeat(400))]);
		await h.session.prompt("one ".repeat(400));
		await h.session.prompt("two ".repeat(400));
		const hold = gate();
		h.faux.setResponses([heldResponse(hold, fauxAssistantMessage("SUMMARY")), fauxAssistantMessage("SUMMARY")]);
		const compacting = h.session.compact();
		await hold.started;
		await expect(h.session.prompt("now?")).rejects.toThrow(
			"Cannot submit a prompt while compaction is in progress. Wait for compaction to finish and retry.",
		);
		hold.release();
		await compacting;
	});

	it("throws before any event when no model is selected", async () => {
		const h = await createHarness();
		(h.session.agent.state as { model: unknown }).model = undefined;
		await expect(h.session.prompt("hi")).rejects.toThrow(/No model selected/);
		expect(h.events).toEqual([]);
	});

	it("throws before any event when the provider has no configured auth", async () => {
		const h = await createHarness();
		registerKeylessProvider(h);
		(h.session.agent.state as { model: unknown }).model = h.modelRuntime.getModel("locked", "locked-1");
		await expect(h.session.prompt("hi")).rejects.toThrow("No API key found for locked.");
		expect(h.events).toEqual([]);
	});

	it("a prompt deferred while settling rejects when it later fails, if the caller waits for its disposition", async () => {
		const h = await createHarness();
		registerKeylessProvider(h);
		h.faux.setResponses([fauxAssistantMessage("one")]);
		let deferred: Promise<void> | undefined;
		const dispositions: string[] = [];
		h.session.subscribe((event) => {
			if (event.type !== "agent_settled" || deferred) return;
			// Sent while `agent_settled` is dispatched; by the time it runs the model has no credentials.
			deferred = h.session.prompt("second", { preflightResult: (disposition) => dispositions.push(disposition) });
			(h.session.agent.state as { model: unknown }).model = h.modelRuntime.getModel("locked", "locked-1");
		});
		await h.session.prompt("first");
		expect(deferred).toBeDefined();
		await expect(deferred).rejects.toThrow("No API key found for locked.");
		expect(dispositions).toEqual([]);
	});

	it("does not throw on a provider error: the run ends with an error assistant message", async () => {
		const h = await createHarness({ settings: { retry: { enabled: false } } });
		h.faux.setResponses([fauxAssistantMessage("", { stopReason: "error", errorMessage: "boom" })]);
		await h.session.prompt("hi");
		const last = h.session.messages.at(-1);
		expect(last).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: "boom" });
	});

	it("runs an extension command even while streaming, without an input event", async () => {
		const seen: string[] = [];
		const h = await createHarness({
			extension: noteCommandAndInputLog(seen),
		});
		const hold = gate();
		h.faux.setResponses([heldResponse(hold, fauxAssistantMessage("done"))]);
		const running = h.session.prompt("go");
		await hold.started;
		const decisions: string[] = [];
		await h.session.prompt("/note remember this", { preflightResult: (d) => decisions.push(d) });
		expect(decisions).toEqual(["handled"]);
		hold.release();
		await running;
		expect(seen).toEqual(["input:go", "command:remember this"]);
		await expect(h.session.steer("/note x")).rejects.toThrow(
			'Extension command "/note" cannot be queued. Use prompt() or execute the command when not streaming.',
		);
	});

	it("expands prompt templates and hands input transforms to the run", async () => {
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("input", (event) => ({ action: "transform", text: event.text.toUpperCase() }));
			},
		});
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("shout");
		expect(textOfMessage(h.session.messages.find((m) => m.role === "user")!)).toBe("SHOUT");
	});
});

describe("concurrent prompts", () => {
	it("two prompt() calls in the same tick: one runs, the other is rejected cleanly", async () => {
		const h = await createHarness();
		h.faux.setResponses([fauxAssistantMessage("only one")]);
		const results = await Promise.allSettled([h.session.prompt("a"), h.session.prompt("b")]);
		expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
		const rejected = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
		expect(String(rejected.reason)).toContain("Agent is already processing");
		expect(h.faux.state.callCount).toBe(1);
		expect(h.events.filter((event) => event.type === "agent_settled")).toHaveLength(1);
	});
});
