import { type AssistantMessage, type FauxResponseStep, fauxAssistantMessage } from "@tau/ai";
import {
	type AgentSessionEvent,
	type CompactionEntry,
	type ContextEditEntry,
	type ExtensionAPI,
	estimateTokens,
} from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../agent-session/harness.js";

const failure = (errorMessage: string): AssistantMessage =>
	fauxAssistantMessage("", { stopReason: "error", errorMessage });
const long = (word: string) => `${word} `.repeat(400);
const SMALL = { compaction: { enabled: true, reserveTokens: 200, keepRecentTokens: 50 } };

function ofType<T extends AgentSessionEvent["type"]>(events: AgentSessionEvent[], type: T) {
	return events.filter((event): event is Extract<AgentSessionEvent, { type: T }> => event.type === type);
}

function entriesOfType<T extends string>(h: Harness, type: T) {
	return h.sessionManager.getEntries().filter((entry) => entry.type === type);
}

/** Answers summary requests with `summary` and everything else with `answer`, as often as asked. */
function summarizerOr(summary: string, answer: () => AssistantMessage): FauxResponseStep {
	return (context) =>
		JSON.stringify(context.messages).includes("summarization assistant") ? fauxAssistantMessage(summary) : answer();
}

/** A reply that reports it started and then waits for the request to be aborted. */
function untilAborted(started: () => void): FauxResponseStep {
	return async (_context, options) => {
		started();
		const signal = options?.signal;
		if (signal && !signal.aborted) await new Promise((resolve) => signal.addEventListener("abort", resolve));
		return fauxAssistantMessage("too late");
	};
}

describe("compaction through a real session", () => {
	it("manual compaction aborts the running turn first and never continues it", async () => {
		const h = await createHarness({
			settings: { compaction: { enabled: false, reserveTokens: 200, keepRecentTokens: 20 } },
		});
		h.faux.setResponses([fauxAssistantMessage(long("one")), fauxAssistantMessage(long("two"))]);
		await h.session.prompt(long("first"));
		await h.session.prompt(long("second"));
		let markStarted = () => {};
		const started = new Promise<void>((resolve) => {
			markStarted = resolve;
		});
		const summary = summarizerOr("SUMMARY", () => fauxAssistantMessage("a continued turn"));
		h.faux.setResponses([untilAborted(markStarted), summary, summary]);
		const running = h.session.prompt("third");
		await started;
		const result = await h.session.compact();
		await running;
		expect(result.summary).toContain("SUMMARY");
		const types = h.events.map((event) => event.type);
		const abortedEnd = h.events.findIndex(
			(event) =>
				event.type === "message_end" &&
				(event.message as AssistantMessage).role === "assistant" &&
				(event.message as AssistantMessage).stopReason === "aborted",
		);
		expect(abortedEnd).toBeGreaterThan(-1);
		expect(abortedEnd).toBeLessThan(types.indexOf("compaction_start"));
		// The interrupted turn is not resumed after the compaction.
		expect(types.slice(types.indexOf("compaction_start"))).not.toContain("agent_start");
		expect(h.session.getLastAssistantText()).not.toBe("a continued turn");
	});

	it("events run compaction_start, session_before_compact, session_compact, compaction_end; a supplied summary is stored with fromHook", async () => {
		const log: string[] = [];
		const h = await createHarness({
			settings: { compaction: { enabled: false, reserveTokens: 200, keepRecentTokens: 20 } },
			extension: (pi: ExtensionAPI) => {
				pi.on("session_before_compact", (event) => {
					log.push(`session_before_compact:${event.reason}:${event.willRetry}`);
					return {
						compaction: {
							summary: "EXTENSION SUMMARY",
							firstKeptEntryId: event.preparation.firstKeptEntryId,
							tokensBefore: event.preparation.tokensBefore,
						},
					};
				});
				pi.on("session_compact", (event) => {
					log.push(`session_compact:${event.fromExtension}`);
				});
			},
		});
		h.session.subscribe((event) => {
			if (event.type === "compaction_start" || event.type === "compaction_end") log.push(event.type);
		});
		h.faux.setResponses([fauxAssistantMessage(long("one")), fauxAssistantMessage(long("two"))]);
		await h.session.prompt(long("first"));
		await h.session.prompt(long("second"));
		await h.session.compact();
		expect(log).toEqual([
			"compaction_start",
			"session_before_compact:manual:false",
			"session_compact:true",
			"compaction_end",
		]);
		const [entry] = entriesOfType(h, "compaction") as CompactionEntry[];
		expect(entry).toMatchObject({ summary: "EXTENSION SUMMARY", fromHook: true });
		expect(h.faux.state.callCount).toBe(2);
	});

	it("failure events carry 'Compaction failed: …' for manual and 'Auto-compaction failed: …' for threshold", async () => {
		const failed: { reason: string; errorMessage?: string; aborted: boolean }[] = [];
		const extension = (pi: ExtensionAPI) => {
			pi.on("session_compact_failed", (event) => {
				failed.push(event);
			});
		};
		const manual = await createHarness({ settings: SMALL, loader: { extensionFactories: [extension] } });
		manual.faux.setResponses([fauxAssistantMessage("hi")]);
		await manual.session.prompt("hi");
		await expect(manual.session.compact()).rejects.toThrow("Nothing to compact (session too small)");
		expect(ofType(manual.events, "compaction_end")).toMatchObject([
			{
				reason: "manual",
				aborted: false,
				errorMessage: "Compaction failed: Nothing to compact (session too small)",
			},
		]);
		expect(failed).toMatchObject([
			{
				reason: "manual",
				aborted: false,
				errorMessage: "Compaction failed: Nothing to compact (session too small)",
			},
		]);

		failed.length = 0;
		const threshold = await createHarness({
			settings: { compaction: { enabled: true, reserveTokens: 1000, keepRecentTokens: 50 } },
			models: [{ id: "faux-1", contextWindow: 3000 }],
			loader: { extensionFactories: [extension] },
		});
		threshold.faux.setResponses([
			fauxAssistantMessage(long("one")),
			() => fauxAssistantMessage("two ".repeat(2400)),
			() => failure("summarizer exploded"),
		]);
		await threshold.session.prompt("first");
		await threshold.session.prompt("second");
		const end = ofType(threshold.events, "compaction_end").at(-1)!;
		expect(end).toMatchObject({ reason: "threshold", result: undefined, aborted: false, willRetry: false });
		expect(end.errorMessage).toBe("Auto-compaction failed: Summarization failed: summarizer exploded");
		expect(failed).toMatchObject([{ reason: "threshold", errorMessage: end.errorMessage }]);
		expect(entriesOfType(threshold, "compaction")).toEqual([]);
	});
});

/** Records every `session_compact` and `session_compact_failed` payload (signal and entry aside). */
function compactionNotifications() {
	const seen: { type: string; [key: string]: unknown }[] = [];
	const extension = (pi: ExtensionAPI) => {
		pi.on("session_compact", ({ compactionEntry: _entry, ...event }) => {
			seen.push(event);
		});
		pi.on("session_compact_failed", (event) => {
			seen.push({ ...event });
		});
	};
	return { seen, extension };
}

describe("compaction notifications and results", () => {
	it("session_compact carries reason and willRetry; the result estimates the rebuilt context", async () => {
		const { seen, extension } = compactionNotifications();
		const h = await createHarness({
			settings: { compaction: { enabled: false, reserveTokens: 200, keepRecentTokens: 20 } },
			loader: { extensionFactories: [extension] },
		});
		h.faux.setResponses([
			fauxAssistantMessage(long("one")),
			fauxAssistantMessage(long("two")),
			fauxAssistantMessage("SUMMARY"),
			fauxAssistantMessage("PREFIX SUMMARY"),
		]);
		await h.session.prompt(long("first"));
		await h.session.prompt(long("second"));
		const result = await h.session.compact();
		expect(seen).toEqual([{ type: "session_compact", fromExtension: false, reason: "manual", willRetry: false }]);
		const projected = h.sessionManager.buildSessionProjection().messages;
		const expected = projected.reduce((sum, message) => sum + estimateTokens(message), 0);
		expect(result.estimatedTokensAfter).toBe(expected);
		expect(result.estimatedTokensAfter).toBeLessThan(result.tokensBefore);
		expect(ofType(h.events, "compaction_end")[0]!.result?.estimatedTokensAfter).toBe(expected);
	});

	it("session_compact_failed carries willRetry and whether an extension had supplied the summary", async () => {
		const { seen, extension } = compactionNotifications();
		let session: Harness["session"] | undefined;
		const h = await createHarness({
			settings: { compaction: { enabled: false, reserveTokens: 200, keepRecentTokens: 20 } },
			loader: {
				extensionFactories: [
					extension,
					(pi: ExtensionAPI) => {
						// Supplies a summary, but the compaction is aborted before it is stored.
						pi.on("session_before_compact", (event) => {
							session?.abortCompaction();
							return {
								compaction: {
									summary: "TOO LATE",
									firstKeptEntryId: event.preparation.firstKeptEntryId,
									tokensBefore: event.preparation.tokensBefore,
								},
							};
						});
					},
				],
			},
		});
		session = h.session;
		h.faux.setResponses([fauxAssistantMessage(long("one")), fauxAssistantMessage(long("two"))]);
		await h.session.prompt(long("first"));
		await h.session.prompt(long("second"));
		await expect(h.session.compact()).rejects.toThrow();
		expect(seen).toEqual([
			{ type: "session_compact_failed", reason: "manual", aborted: true, willRetry: false, fromExtension: true },
		]);
	});

	it("overflow recovery reports willRetry on both the success and the failure notifications", async () => {
		const { seen, extension } = compactionNotifications();
		const h = await createHarness({ settings: SMALL, loader: { extensionFactories: [extension] } });
		h.faux.setResponses([
			fauxAssistantMessage(long("earlier")),
			() => failure("prompt is too long"),
			() => fauxAssistantMessage("SUMMARY"),
			() => failure("prompt is too long"),
		]);
		await h.session.prompt(long("first"));
		await h.session.prompt("second");
		expect(seen).toMatchObject([
			{ type: "session_compact", reason: "overflow", willRetry: true, fromExtension: false },
			{ type: "session_compact_failed", reason: "overflow", aborted: false, willRetry: false, fromExtension: false },
		]);
	});
});

describe("overflow recovery through a real session", () => {
	it("omits the failed attempt with a context edit before compacting, then retries once", async () => {
		const h = await createHarness({ settings: SMALL });
		h.faux.setResponses([
			fauxAssistantMessage(long("earlier")),
			failure("prompt is too long: 250000 tokens > 200000 maximum"),
			fauxAssistantMessage("SUMMARY"),
			fauxAssistantMessage("answer after compaction"),
		]);
		await h.session.prompt(long("first"));
		await h.session.prompt("second");
		const failedEntry = h.sessionManager
			.getEntries()
			.find((entry) => entry.type === "message" && (entry.message as AssistantMessage).stopReason === "error")!;
		const edits = entriesOfType(h, "context_edit") as ContextEditEntry[];
		expect(edits).toMatchObject([{ targetId: failedEntry.id, replacement: null }]);
		const types = h.sessionManager.getEntries().map((entry) => entry.type);
		expect(types.indexOf("context_edit")).toBeLessThan(types.indexOf("compaction"));
		expect(entriesOfType(h, "compaction")).toHaveLength(1);
		expect(h.faux.state.callCount).toBe(4);
		// The failed attempt stays in the raw history but not in the model context.
		const projected = h.sessionManager
			.buildSessionProjection()
			.entries.filter((entry) => entry.messages.length > 0)
			.map((entry) => entry.sourceEntry.id);
		expect(h.sessionManager.getEntry(failedEntry.id)).toBeDefined();
		expect(projected).not.toContain(failedEntry.id);
	});

	it("the one-attempt flag resets on the next user message", async () => {
		const h = await createHarness({ settings: SMALL });
		h.faux.setResponses([
			fauxAssistantMessage(long("earlier")),
			() => failure("prompt is too long"),
			() => fauxAssistantMessage("SUMMARY"),
			() => failure("prompt is too long"),
		]);
		await h.session.prompt(long("first"));
		await h.session.prompt("second");
		const ends = () => ofType(h.events, "compaction_end");
		expect(ends().map((end) => end.willRetry)).toEqual([true, false]);
		expect(ends()[1]!.errorMessage).toMatch(/after one compact-and-retry attempt/);

		const recovered = summarizerOr("SECOND SUMMARY", () => fauxAssistantMessage("recovered again"));
		h.faux.setResponses([
			() => fauxAssistantMessage(long("more")),
			() => failure("prompt is too long"),
			recovered,
			recovered,
			recovered,
		]);
		await h.session.prompt(long("third"));
		// The exhausted recovery was reported once: the next prompt's check does not report it again.
		expect(ends().filter((end) => end.errorMessage !== undefined)).toHaveLength(1);
		expect(ofType(h.events, "compaction_start")).toHaveLength(1);
		await h.session.prompt("fourth");
		const recoveries = ends().filter((end) => end.willRetry && end.result !== undefined);
		expect(recoveries).toHaveLength(2);
		expect(recoveries[1]!.result!.summary).toContain("SECOND SUMMARY");
		expect(h.session.getLastAssistantText()).toBe("recovered again");
	});
});

describe("compaction.enabled: false", () => {
	it("runs neither threshold compaction nor overflow recovery, but /compact still works", async () => {
		const disabled = { compaction: { enabled: false, reserveTokens: 1000, keepRecentTokens: 50 } };
		const threshold = await createHarness({ settings: disabled, models: [{ id: "faux-1", contextWindow: 3000 }] });
		threshold.faux.setResponses([fauxAssistantMessage(long("one")), () => fauxAssistantMessage("two ".repeat(2400))]);
		await threshold.session.prompt("first");
		await threshold.session.prompt("second");
		expect(ofType(threshold.events, "compaction_start")).toEqual([]);
		expect(threshold.faux.state.callCount).toBe(2);

		const overflow = await createHarness({ settings: disabled });
		overflow.faux.setResponses([
			fauxAssistantMessage(long("earlier")),
			failure("prompt is too long: 250000 tokens > 200000 maximum"),
			fauxAssistantMessage("MANUAL SUMMARY"),
		]);
		await overflow.session.prompt(long("first"));
		await overflow.session.prompt("second");
		expect(ofType(overflow.events, "compaction_start")).toEqual([]);
		expect(entriesOfType(overflow, "context_edit")).toEqual([]);
		expect(overflow.faux.state.callCount).toBe(2);
		expect(overflow.session.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error" });

		const result = await overflow.session.compact();
		expect(result.summary).toContain("MANUAL SUMMARY");
		expect(ofType(overflow.events, "compaction_start")).toEqual([{ type: "compaction_start", reason: "manual" }]);
	});
});
