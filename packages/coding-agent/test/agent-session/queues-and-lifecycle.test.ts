import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import type { AgentSession, ExtensionAPI } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { createHarness, gate, heldResponse, textOfMessage } from "./harness.js";

const listing = () => fauxAssistantMessage(fauxToolCall("ls", { path: "." }), { stopReason: "toolUse" });

function transcript(session: AgentSession): string[] {
	return session.messages
		.filter((message) => message.role !== "system")
		.map((message) => (message.role === "user" ? `user:${textOfMessage(message)}` : message.role));
}

describe("steering modes", () => {
	it("one-at-a-time (default) delivers the oldest steering message per drain point", async () => {
		const h = await createHarness();
		const hold = gate();
		h.faux.setResponses([
			heldResponse(hold, listing()),
			fauxAssistantMessage("after a"),
			fauxAssistantMessage("after b"),
		]);
		const running = h.session.prompt("go");
		await hold.started;
		await h.session.steer("a");
		await h.session.steer("b");
		hold.release();
		await running;
		expect(transcript(h.session)).toEqual([
			"user:go",
			"assistant",
			"toolResult",
			"user:a",
			"assistant",
			"user:b",
			"assistant",
		]);
	});

	it("all delivers every queued steering message at the same drain point", async () => {
		const h = await createHarness({ settings: { steeringMode: "all" } });
		const hold = gate();
		h.faux.setResponses([heldResponse(hold, listing()), fauxAssistantMessage("after both")]);
		const running = h.session.prompt("go");
		await hold.started;
		await h.session.steer("a");
		await h.session.steer("b");
		hold.release();
		await running;
		expect(transcript(h.session)).toEqual(["user:go", "assistant", "toolResult", "user:a", "user:b", "assistant"]);
	});
});

describe("session state and lifecycle", () => {
	it("isStreaming is already true in before_agent_start; idle again after settle; clearQueue announces itself", async () => {
		const observed: boolean[] = [];
		let session: AgentSession | undefined;
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("before_agent_start", () => {
					observed.push(session!.isStreaming, session!.isIdle);
					return undefined;
				});
			},
		});
		session = h.session;
		h.faux.setResponses([fauxAssistantMessage("x")]);
		await h.session.prompt("hi");
		expect(observed).toEqual([true, false]);
		expect([h.session.isStreaming, h.session.isIdle]).toEqual([false, true]);
		const before = h.events.length;
		expect(h.session.clearQueue()).toEqual({ steering: [], followUp: [] });
		expect(h.events.slice(before)).toEqual([{ type: "queue_update", steering: [], followUp: [] }]);
	});

	it("an idle custom message without a trigger reaches subscribers only, and the transcript", async () => {
		const extensionSaw: string[] = [];
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("message_start", (event) => {
					extensionSaw.push(`start:${event.message.role}`);
				});
				pi.on("message_end", (event) => {
					extensionSaw.push(`end:${event.message.role}`);
				});
			},
		});
		await h.session.sendCustomMessage({ customType: "note", content: "hello", display: true });
		expect(h.events.map((event) => event.type).filter((type) => type.startsWith("message_"))).toEqual([
			"message_start",
			"message_end",
		]);
		expect(extensionSaw).toEqual([]);
		expect(h.session.messages.at(-1)).toMatchObject({ role: "custom", customType: "note" });
		expect(h.faux.state.callCount).toBe(0);
	});

	it("dispose() does not deliver session_shutdown (the runtime or shutdown() does)", async () => {
		const seen: string[] = [];
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("session_shutdown", (event) => {
					seen.push(event.reason);
				});
			},
		});
		await h.session.bindExtensions({});
		h.session.dispose();
		expect(seen).toEqual([]);
	});

	it("getLastAssistantText skips a failed reply and returns the last real answer", async () => {
		const h = await createHarness({ settings: { retry: { enabled: false } } });
		h.faux.setResponses([
			fauxAssistantMessage("  good answer  "),
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "boom" }),
		]);
		await h.session.prompt("a");
		await h.session.prompt("b");
		expect(h.session.getLastAssistantText()).toBe("good answer");
	});
});
