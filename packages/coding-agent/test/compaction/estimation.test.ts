import { calculateContextTokens, estimateTokens, SessionManager, shouldCompact } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { estimateContextTokens, estimateProjectedContextTokens } from "../../src/core/compaction/index.js";
import { assistant, usage, user } from "../session/helpers.js";
import { sized } from "./helpers.js";

const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };

describe("token estimation and the trigger rule", () => {
	it("compacts strictly above window - reserve, and never when disabled", () => {
		expect(shouldCompact(111616, 128000, settings)).toBe(false);
		expect(shouldCompact(111617, 128000, settings)).toBe(true);
		expect(shouldCompact(200000, 128000, { ...settings, enabled: false })).toBe(false);
	});

	it("estimates ceil(chars/4) per role", () => {
		expect(estimateTokens(user("abcde"))).toBe(2);
		expect(
			estimateTokens({
				role: "user",
				content: [
					{ type: "text", text: "abcd" },
					{ type: "image", data: "AAAA", mimeType: "image/png" },
				],
				timestamp: 0,
			}),
		).toBe(Math.ceil((4 + 4800) / 4));
		const tools = [{ name: "read", description: "r", parameters: { type: "object" } }];
		expect(
			estimateTokens({
				role: "system",
				content: "abcd",
				sections: { a: "12345678", gone: null },
				toolsAdded: tools,
				timestamp: 0,
			}),
		).toBe(Math.ceil((4 + 8 + JSON.stringify(tools).length) / 4));
		expect(
			estimateTokens(
				assistant("", {
					content: [
						{ type: "text", text: "abcd" },
						{ type: "thinking", thinking: "abcdefgh" },
						{ type: "toolCall", id: "c", name: "read", arguments: { path: "a" } },
					],
				}),
			),
		).toBe(Math.ceil((4 + 8 + 4 + JSON.stringify({ path: "a" }).length) / 4));
		expect(
			estimateTokens({
				role: "bashExecution",
				command: "ls",
				output: "abcdef",
				exitCode: 0,
				cancelled: false,
				truncated: false,
				timestamp: 0,
			}),
		).toBe(2);
		expect(estimateTokens({ role: "compactionSummary", summary: "abcdefghi", tokensBefore: 1, timestamp: 0 })).toBe(
			3,
		);
		expect(estimateTokens({ role: "branchSummary", summary: "abcd", fromId: null, timestamp: 0 })).toBe(1);
		expect(
			estimateTokens({
				role: "toolResult",
				toolCallId: "c",
				toolName: "read",
				content: [
					{ type: "text", text: "abcdefghi" },
					{ type: "image", data: "AAAA", mimeType: "image/png" },
				],
				isError: false,
				timestamp: 0,
			}),
		).toBe(Math.ceil((9 + 4800) / 4));
		expect(estimateTokens({ role: "custom", customType: "n", content: "abcde", display: true, timestamp: 0 })).toBe(
			2,
		);
		expect(estimateTokens({ role: "mystery", timestamp: 0 } as never)).toBe(0);
	});

	it("uses the last valid assistant usage plus trailing estimates", () => {
		expect(calculateContextTokens({ ...usage(3, 4), totalTokens: 0, cacheRead: 5 })).toBe(12);
		const messages = [
			user(sized(10)),
			assistant("ok", { usage: usage(1000, 50) }),
			user(sized(7)),
			assistant("boom", { usage: usage(9999, 1), stopReason: "error" }),
		];
		const estimate = estimateContextTokens(messages);
		expect(estimate).toEqual({ tokens: 1050 + 7 + 1, usageTokens: 1050, trailingTokens: 8, lastUsageIndex: 1 });
		expect(estimateContextTokens([user(sized(10))])).toMatchObject({ tokens: 10, lastUsageIndex: null });
	});

	it("ignores a usage that predates the latest context edit and counts the replayed system message once", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage({ role: "system", content: sized(100), timestamp: 1 });
		const u = manager.appendMessage(user(sized(50)));
		manager.appendMessage(assistant(sized(2), { usage: usage(5000, 10) }));
		manager.appendMessage(user(sized(3)));
		const fresh = estimateProjectedContextTokens(manager.buildSessionProjection(), manager.getBranch());
		expect(fresh).toMatchObject({ tokens: 5013, lastUsageIndex: 2 });

		manager.appendContextEdit(u, { content: sized(20) });
		const stale = estimateProjectedContextTokens(manager.buildSessionProjection(), manager.getBranch());
		expect(stale).toEqual({ tokens: 100 + 20 + 2 + 3, usageTokens: 0, trailingTokens: 125, lastUsageIndex: null });

		manager.appendMessage(assistant("new", { usage: usage(700, 5) }));
		const renewed = estimateProjectedContextTokens(manager.buildSessionProjection(), manager.getBranch());
		expect(renewed).toMatchObject({ tokens: 705, lastUsageIndex: 4 });
	});

	it("ignores a kept usage that predates the latest compaction and re-estimates from the checkpoint", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage({ role: "system", content: sized(100), timestamp: 1 });
		manager.appendMessage(user(sized(40)));
		const kept = manager.appendMessage(user(sized(50)));
		manager.appendMessage(assistant(sized(2), { usage: usage(5000, 10) }));
		manager.appendCompaction(sized(10), kept, 999);
		manager.appendMessage(user(sized(3)));
		const projection = manager.buildSessionProjection();
		expect(projection.messages.map((m) => m.role)).toEqual([
			"system",
			"compactionSummary",
			"user",
			"assistant",
			"user",
		]);
		// Without invalidation the kept answer's usage (5010) would be reused.
		expect(estimateContextTokens(projection.messages).tokens).toBe(5013);
		expect(estimateProjectedContextTokens(projection, manager.getBranch())).toEqual({
			tokens: 100 + 10 + 50 + 2 + 3,
			usageTokens: 0,
			trailingTokens: 165,
			lastUsageIndex: null,
		});
		manager.appendMessage(assistant("after", { usage: usage(800, 5) }));
		expect(estimateProjectedContextTokens(manager.buildSessionProjection(), manager.getBranch())).toMatchObject({
			tokens: 805,
			lastUsageIndex: 5,
		});
	});
});
