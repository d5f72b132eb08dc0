import type { AssistantMessage } from "@tau/ai";
import { SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	type CompactionCheck,
	decideCompaction,
	LENGTH_RECOVERY_FAILED,
	OVERFLOW_RECOVERY_FAILED,
	omitFailedAttempt,
} from "../../src/core/compaction/index.js";
import { assistant, usage, user } from "../session/helpers.js";
import { sized } from "./helpers.js";

const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };

function check(
	manager: SessionManager,
	message: AssistantMessage,
	overrides: Partial<CompactionCheck> = {},
): CompactionCheck {
	return {
		message,
		branch: manager.getBranch(),
		projection: manager.buildSessionProjection(),
		settings,
		contextWindow: 128000,
		maxTokens: 16384,
		sameModel: true,
		recoveryAttempted: false,
		postRun: true,
		...overrides,
	};
}

function withAnswer(message: AssistantMessage): SessionManager {
	const manager = SessionManager.inMemory("/w");
	manager.appendMessage(user("q", Date.now() - 1000));
	manager.appendMessage(message);
	return manager;
}

const overflowError = (timestamp = Date.now()) =>
	assistant("", {
		stopReason: "error",
		errorMessage: "prompt is too long: 210000 tokens > 200000",
		usage: usage(0, 0),
		timestamp,
	});

describe("automatic compaction decisions", () => {
	it("an explicit overflow compacts and retries once, then fails with the documented message", () => {
		const failed = overflowError();
		const manager = withAnswer(failed);
		expect(decideCompaction(check(manager, failed))).toEqual({
			action: "compact",
			reason: "overflow",
			willRetry: true,
		});
		expect(decideCompaction(check(manager, failed, { recoveryAttempted: true }))).toEqual({
			action: "fail",
			errorMessage: OVERFLOW_RECOVERY_FAILED,
		});
	});

	it("an overflow already omitted by a context edit is not handled again", () => {
		const failed = overflowError();
		const manager = withAnswer(failed);
		omitFailedAttempt(manager, manager.getLeafId()!);
		expect(decideCompaction(check(manager, failed)).action).toBe("none");
	});

	it("a silent overflow on a completed response compacts without retry", () => {
		const message = assistant("ok", { usage: usage(130000, 10) });
		const manager = withAnswer(message);
		expect(decideCompaction(check(manager, message))).toEqual({
			action: "compact",
			reason: "overflow",
			willRetry: false,
		});
	});

	it("a recoverable length stop retries; a second one fails with the truncation message", () => {
		const message = assistant("partial", { stopReason: "length", usage: usage(1000, 500) });
		const manager = withAnswer(message);
		expect(decideCompaction(check(manager, message))).toEqual({
			action: "compact",
			reason: "overflow",
			willRetry: true,
		});
		expect(decideCompaction(check(manager, message, { recoveryAttempted: true }))).toEqual({
			action: "fail",
			errorMessage: LENGTH_RECOVERY_FAILED,
		});
	});

	it("overflow from another model, a stale pre-compaction message, an abort or disabled compaction do nothing", () => {
		const failed = overflowError(Date.now() - 60_000);
		const manager = withAnswer(failed);
		expect(decideCompaction(check(manager, failed, { sameModel: false })).action).toBe("none");
		expect(decideCompaction(check(manager, failed, { settings: { ...settings, enabled: false } })).action).toBe(
			"none",
		);
		const aborted = assistant("", { stopReason: "aborted", usage: usage(200000, 0) });
		expect(decideCompaction(check(withAnswer(aborted), aborted)).action).toBe("none");
		manager.appendCompaction("s", null, 1);
		expect(decideCompaction(check(manager, failed)).action).toBe("none");
	});

	it("staleness follows entry order, not timestamps: a retry answer in the compaction's millisecond is newer", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user("q", Date.now() - 1000));
		const compactionId = manager.appendCompaction("s", null, 1);
		const compactedAt = Date.parse(manager.getEntry(compactionId)!.timestamp);
		const retryAnswer = overflowError(compactedAt);
		manager.appendMessage(retryAnswer);
		expect(decideCompaction(check(manager, retryAnswer, { recoveryAttempted: true }))).toEqual({
			action: "fail",
			errorMessage: OVERFLOW_RECOVERY_FAILED,
		});

		// Clock skew the other way: an answer stamped after the compaction but written before it is stale.
		const early = SessionManager.inMemory("/w");
		early.appendMessage(user("q", Date.now() - 1000));
		const skewed = overflowError(Date.now() + 60_000);
		early.appendMessage(skewed);
		early.appendCompaction("s", null, 1);
		expect(decideCompaction(check(early, skewed)).action).toBe("none");
	});

	it("threshold: strictly above window - reserve by the message's usage", () => {
		const below = assistant("ok", { usage: usage(111616, 0) });
		expect(decideCompaction(check(withAnswer(below), below)).action).toBe("none");
		const above = assistant("ok", { usage: usage(111617, 0) });
		expect(decideCompaction(check(withAnswer(above), above))).toEqual({
			action: "compact",
			reason: "threshold",
			willRetry: false,
		});
	});

	it("threshold with context edits re-estimates the projection", () => {
		const manager = SessionManager.inMemory("/w");
		const big = manager.appendMessage(user(sized(120000)));
		const message = assistant("ok", { usage: usage(121000, 10) });
		manager.appendMessage(message);
		expect(decideCompaction(check(manager, message)).action).toBe("compact");
		manager.appendContextEdit(big, { content: "small now" });
		expect(decideCompaction(check(manager, message)).action).toBe("none");
	});
});
