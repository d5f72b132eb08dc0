import { type AssistantMessage, fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import type { AgentSessionEvent, ExtensionAPI } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { createHarness, textOfMessage } from "./harness.js";

const failure = (errorMessage: string): AssistantMessage =>
	fauxAssistantMessage("", { stopReason: "error", errorMessage });

function ofType<T extends AgentSessionEvent["type"]>(events: AgentSessionEvent[], type: T) {
	return events.filter((event): event is Extract<AgentSessionEvent, { type: T }> => event.type === type);
}

describe("auto-retry", () => {
	it("retries a transient error with 2 s / 4 s / 8 s backoff, hiding failed attempts, then succeeds", async () => {
		const h = await createHarness();
		h.faux.setResponses([
			failure("fetch failed"),
			failure("503 Service Unavailable"),
			failure("fetch failed"),
			fauxAssistantMessage("finally"),
		]);
		await h.session.prompt("hi");
		const starts = ofType(h.events, "auto_retry_start");
		expect(starts.map((event) => [event.attempt, event.maxAttempts, event.delayMs])).toEqual([
			[1, 3, 2000],
			[2, 3, 4000],
			[3, 3, 8000],
		]);
		expect(h.sleeps).toEqual([2000, 4000, 8000]);
		expect(ofType(h.events, "auto_retry_end")).toEqual([{ type: "auto_retry_end", success: true, attempt: 3 }]);
		// Each retry request ends with the user message: failed attempts are omitted from context.
		for (const request of h.requests.slice(1)) expect(request.messages.at(-1)?.role).toBe("user");
		expect(h.requests[3]!.messages.filter((m) => m.role === "assistant")).toHaveLength(0);
		// The raw attempts stay in the session file for diagnosis.
		const branch = h.sessionManager.getBranch();
		expect(branch.filter((e) => e.type === "message" && e.message.role === "assistant")).toHaveLength(4);
		expect(branch.filter((e) => e.type === "context_edit" && e.replacement === null)).toHaveLength(3);
		expect(h.session.getLastAssistantText()).toBe("finally");
	});

	it("gives up after maxRetries: four calls, auto_retry_end with the final error", async () => {
		const h = await createHarness();
		h.faux.setResponses([
			failure("fetch failed"),
			failure("fetch failed"),
			failure("fetch failed"),
			failure("socket hang up"),
		]);
		await h.session.prompt("hi");
		expect(h.faux.state.callCount).toBe(4);
		expect(ofType(h.events, "auto_retry_end")).toEqual([
			{ type: "auto_retry_end", success: false, attempt: 3, finalError: "socket hang up" },
		]);
		const willRetry = ofType(h.events, "agent_end").map((event) => event.willRetry);
		expect(willRetry).toEqual([true, true, true, false]);
	});

	it("caps the delay with maxAgentDelayMs", async () => {
		const h = await createHarness({
			settings: { retry: { enabled: true, maxRetries: 3, baseDelayMs: 2000, maxAgentDelayMs: 3000 } },
		});
		h.faux.setResponses([failure("fetch failed"), failure("fetch failed"), fauxAssistantMessage("ok")]);
		await h.session.prompt("hi");
		expect(h.sleeps).toEqual([2000, 3000]);
	});

	it("does not retry quota errors even with a 429 (negative patterns first)", async () => {
		const h = await createHarness();
		h.faux.setResponses([failure("429 insufficient_quota: You exceeded your current quota")]);
		await h.session.prompt("hi");
		expect(h.faux.state.callCount).toBe(1);
		expect(ofType(h.events, "auto_retry_start")).toEqual([]);
		expect(ofType(h.events, "agent_end")[0]!.willRetry).toBe(false);
	});

	it("abort during backoff ends the retry as cancelled and settles aborted", async () => {
		const h = await createHarness({
			session: {
				retrySleep: (_ms, signal) =>
					new Promise((_resolve, reject) => {
						signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
						void h.session.abort();
					}),
			},
		});
		h.faux.setResponses([failure("fetch failed"), fauxAssistantMessage("never")]);
		await h.session.prompt("hi");
		expect(ofType(h.events, "auto_retry_end")).toEqual([
			{ type: "auto_retry_end", success: false, attempt: 1, finalError: "Retry cancelled" },
		]);
		expect(ofType(h.events, "agent_settled")).toEqual([{ type: "agent_settled", aborted: true }]);
		expect(h.faux.state.callCount).toBe(1);
	});

	it("counts consecutive failures only: the counter resets after a success", async () => {
		const h = await createHarness();
		h.faux.setResponses([
			failure("fetch failed"),
			fauxAssistantMessage("ok"),
			failure("fetch failed"),
			fauxAssistantMessage("ok again"),
		]);
		await h.session.prompt("one");
		await h.session.prompt("two");
		expect(ofType(h.events, "auto_retry_start").map((event) => event.attempt)).toEqual([1, 1]);
	});

	it("does not retry when retries are disabled", async () => {
		const h = await createHarness({ settings: { retry: { enabled: false } } });
		h.faux.setResponses([failure("fetch failed")]);
		await h.session.prompt("hi");
		expect(h.faux.state.callCount).toBe(1);
		expect(ofType(h.events, "agent_end")[0]!.willRetry).toBe(false);
	});
});

const SMALL = { compaction: { enabled: true, reserveTokens: 200, keepRecentTokens: 50 } };
const long = (word: string) => `${word} `.repeat(400);

describe("overflow and threshold compaction", () => {
	it("compacts once on an overflow error and retries the same input", async () => {
		const h = await createHarness({ settings: SMALL, models: [{ id: "faux-1", contextWindow: 100000 }] });
		h.faux.setResponses([
			fauxAssistantMessage(long("earlier")),
			failure("prompt is too long: 250000 tokens > 200000 maximum"),
			fauxAssistantMessage("SUMMARY OF EARLIER WORK"),
			fauxAssistantMessage("answer after compaction"),
		]);
		await h.session.prompt(long("first"));
		await h.session.prompt("second");
		expect(ofType(h.events, "compaction_start")).toEqual([{ type: "compaction_start", reason: "overflow" }]);
		const end = ofType(h.events, "compaction_end")[0]!;
		expect(end).toMatchObject({ reason: "overflow", aborted: false, willRetry: true });
		expect(end.result?.summary).toContain("SUMMARY OF EARLIER WORK");
		expect(h.session.getLastAssistantText()).toBe("answer after compaction");
		const retried = h.requests.at(-1)!;
		expect(retried.messages.at(-1)?.role).toBe("user");
		expect(textOfMessage(retried.messages.at(-1) as never)).toBe("second");
	});

	it("a second overflow for the same input fails with compaction_end error and session_compact_failed", async () => {
		const failed: unknown[] = [];
		const h = await createHarness({
			settings: SMALL,
			extension: (pi: ExtensionAPI) => {
				pi.on("session_compact_failed", (event) => {
					failed.push(event);
				});
			},
		});
		// Provider replies are stamped at request time, so the retry answer is newer than the compaction.
		h.faux.setResponses([
			fauxAssistantMessage(long("earlier")),
			() => failure("prompt is too long"),
			() => fauxAssistantMessage("SUMMARY"),
			() => failure("prompt is too long"),
		]);
		await h.session.prompt(long("first"));
		await h.session.prompt("second");
		const ends = ofType(h.events, "compaction_end");
		expect(ends).toHaveLength(2);
		expect(ends[1]).toMatchObject({ reason: "overflow", result: undefined, willRetry: false });
		expect(ends[1]!.errorMessage).toMatch(/recovery failed after one compact-and-retry attempt/);
		expect(failed).toHaveLength(1);
		expect(h.faux.state.callCount).toBe(4);
	});

	it("overflow with nothing to compact is a visible failure, not a silent settle", async () => {
		const h = await createHarness({ settings: SMALL });
		h.faux.setResponses([failure("prompt is too long")]);
		await h.session.prompt("hi");
		const end = ofType(h.events, "compaction_end")[0]!;
		expect(end).toMatchObject({ reason: "overflow", result: undefined, willRetry: false });
		expect(end.errorMessage).toMatch(/^Context overflow recovery failed: /);
		// The failed response is the run's visible outcome again (print mode exits non-zero with it).
		const last = h.session.messages.at(-1);
		expect(last).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: "prompt is too long" });
		expect(h.requests).toHaveLength(1);
	});

	it("an overflow error from a different model is not treated as overflow", async () => {
		for (const model of ["other-model", "faux-1"]) {
			const h = await createHarness({ settings: SMALL });
			h.faux.setResponses([
				fauxAssistantMessage(long("earlier")),
				fauxAssistantMessage("SUMMARY"),
				fauxAssistantMessage("fine"),
			]);
			await h.session.prompt(long("first"));
			h.sessionManager.appendMessage({ role: "user", content: "big", timestamp: Date.now() });
			h.sessionManager.appendMessage({
				...failure("prompt is too long"),
				provider: "faux",
				model,
				timestamp: Date.now(),
			});
			await h.session.prompt("again");
			const compacted = ofType(h.events, "compaction_start").length > 0;
			// Negative control: the same failure from the current model does trigger overflow compaction.
			expect(compacted).toBe(model === "faux-1");
		}
	});

	it("a successful response above the threshold compacts without continuing", async () => {
		const h = await createHarness({
			settings: { compaction: { enabled: true, reserveTokens: 1000, keepRecentTokens: 50 } },
			models: [{ id: "faux-1", contextWindow: 3000 }],
		});
		h.faux.setResponses([
			fauxAssistantMessage(long("one")),
			() => fauxAssistantMessage("two ".repeat(2400)),
			() => fauxAssistantMessage("THRESHOLD SUMMARY"),
		]);
		await h.session.prompt("first");
		expect(ofType(h.events, "compaction_start")).toEqual([]);
		const before = h.faux.state.callCount;
		await h.session.prompt("second");
		const starts = ofType(h.events, "compaction_start");
		expect(starts.map((event) => event.reason)).toContain("threshold");
		const end = ofType(h.events, "compaction_end").at(-1)!;
		expect(end).toMatchObject({ reason: "threshold", willRetry: false });
		// No continuation: the run settles right after the compaction.
		const types = h.events.map((event) => event.type).filter((type) => type !== "message_update");
		expect(types.slice(types.lastIndexOf("agent_end"))).toEqual([
			"agent_end",
			"compaction_start",
			"compaction_end",
			"agent_settled",
		]);
		expect(h.requests.length).toBe(before + 1);
	});
});

describe("agent_before_settle", () => {
	it("continue starts another low-level run; abort skips it", async () => {
		let continues = 1;
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("agent_before_settle", () => {
					if (continues-- > 0) {
						return {
							entries: [{ type: "custom_message", customType: "nudge", content: "keep going", display: false }],
							continue: true,
						};
					}
					return undefined;
				});
			},
		});
		h.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await h.session.prompt("hi");
		expect(h.faux.state.callCount).toBe(2);
		expect(ofType(h.events, "agent_settled")).toHaveLength(1);
		const kinds = h.sessionManager.getBranch().map((e) => (e.type === "message" ? e.message.role : e.type));
		expect(kinds.slice(-3)).toEqual(["assistant", "custom_message", "assistant"]);
	});
});

describe("threshold compaction inside and after a run", () => {
	const settings = { compaction: { enabled: true, reserveTokens: 1000, keepRecentTokens: 50 } };
	const models = [{ id: "faux-1", contextWindow: 3000 }];

	it("a threshold crossed between turns compacts before the next request", async () => {
		const h = await createHarness({ settings, models, session: { tools: ["ls"] } });
		h.faux.setResponses([
			fauxAssistantMessage("short"),
			() => fauxAssistantMessage(fauxToolCall("ls", { path: "." }), { stopReason: "toolUse" }),
			() => fauxAssistantMessage("BETWEEN TURNS SUMMARY"),
			() => fauxAssistantMessage("final"),
		]);
		await h.session.prompt("first");
		await h.session.prompt("x ".repeat(5000));
		const types = h.events.map((event) => event.type);
		const compaction = types.indexOf("compaction_start");
		expect(compaction).toBeGreaterThan(types.indexOf("tool_execution_end"));
		expect(ofType(h.events, "compaction_end")[0]).toMatchObject({ reason: "threshold", willRetry: false });
		// The request after the tool result already sees the compacted context.
		const last = JSON.stringify(h.requests.at(-1));
		expect(last).toContain("BETWEEN TURNS SUMMARY");
		expect(h.session.getLastAssistantText()).toBe("final");
		expect(ofType(h.events, "agent_settled")).toHaveLength(2);
	});

	it("threshold compaction continues when messages are queued", async () => {
		let agentEnds = 0;
		const h = await createHarness({
			settings,
			models,
			extension: (pi: ExtensionAPI) => {
				// Queue a message right after the second answer, which crosses the threshold.
				pi.on("agent_end", () => {
					if (++agentEnds !== 2) return;
					pi.sendUserMessage("queued after the answer", { deliverAs: "followUp" });
				});
			},
		});
		h.faux.setResponses([fauxAssistantMessage(long("one")), () => fauxAssistantMessage("two ".repeat(2400))]);
		// Summaries may take one or two calls (history and split-turn prefix); everything else is the answer.
		const answerOrSummary = (context: { messages: { role: string; content: unknown }[] }) =>
			fauxAssistantMessage(
				JSON.stringify(context.messages.at(-1)?.content).includes("<conversation>")
					? "QUEUED SUMMARY"
					: "answer to the queued message",
			);
		h.faux.appendResponses([answerOrSummary, answerOrSummary, answerOrSummary, answerOrSummary]);
		await h.session.prompt("first");
		await h.session.prompt("second");
		expect(ofType(h.events, "compaction_end").at(-1)).toMatchObject({ reason: "threshold" });
		expect(h.session.getLastAssistantText()).toBe("answer to the queued message");
		expect(ofType(h.events, "agent_settled")).toHaveLength(2);
	});
});
