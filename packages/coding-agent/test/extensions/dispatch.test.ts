import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage } from "@tau/agent";
import { type ExtensionAPI, type ExtensionError, ExtensionRunner } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { STALE_CONTEXT_MESSAGE } from "../../src/core/extensions/index.js";
import { bindFakeSession } from "./fake-session.js";
import { loadInlineExtensions } from "./inline-extension.js";

const cwd = mkdtempSync(join(tmpdir(), "tau-ext-dispatch-"));

async function runnerWith(...factories: ((pi: ExtensionAPI) => void)[]) {
	const result = await loadInlineExtensions(cwd, factories);
	expect(result.errors).toEqual([]);
	const runner = new ExtensionRunner({ extensions: result.extensions, runtime: result.runtime, cwd });
	const session = bindFakeSession(runner);
	const errors: ExtensionError[] = [];
	runner.onError((error) => errors.push(error));
	return { runner, errors, session, runtime: result.runtime };
}

const toolCall = (toolName: string, input: Record<string, unknown>) =>
	({ type: "tool_call", toolCallId: "call-1", toolName, input }) as const;

describe("ordering and snapshots", () => {
	it("runs handlers in load order, then registration order", async () => {
		const order: string[] = [];
		const { runner } = await runnerWith(
			(pi) => {
				pi.on("agent_start", () => void order.push("ext1:a"));
				pi.on("agent_start", () => void order.push("ext1:b"));
			},
			(pi) => pi.on("agent_start", () => void order.push("ext2")),
		);
		await runner.emit({ type: "agent_start" });
		expect(order).toEqual(["ext1:a", "ext1:b", "ext2"]);
	});

	it("handlers added or removed during a dispatch take effect from the next dispatch", async () => {
		const calls: string[] = [];
		let api!: ExtensionAPI;
		const { runner } = await runnerWith((pi) => {
			api = pi;
			const off = pi.on("turn_start", () => {
				calls.push("self-removing");
				off();
				api.on("turn_start", () => void calls.push("added"));
			});
			pi.on("turn_start", () => void calls.push("stays"));
		});
		await runner.emit({ type: "turn_start", turnIndex: 0, timestamp: 0 });
		expect(calls).toEqual(["self-removing", "stays"]);
		await runner.emit({ type: "turn_start", turnIndex: 1, timestamp: 0 });
		expect(calls).toEqual(["self-removing", "stays", "stays", "added"]);
	});

	it("a throwing notification handler is reported and later handlers still run", async () => {
		const ran: string[] = [];
		const { runner, errors } = await runnerWith(
			(pi) =>
				pi.on("session_start", () => {
					throw new Error("boom");
				}),
			(pi) => pi.on("session_start", () => void ran.push("second")),
		);
		await runner.emit({ type: "session_start", reason: "startup" });
		expect(ran).toEqual(["second"]);
		expect(errors).toMatchObject([{ extensionPath: "ext1", event: "session_start", error: "boom" }]);
	});

	it("shares one context per dispatch", async () => {
		const contexts: unknown[] = [];
		const { runner } = await runnerWith(
			(pi) => pi.on("agent_end", (_event, ctx) => void contexts.push(ctx)),
			(pi) => pi.on("agent_end", (_event, ctx) => void contexts.push(ctx)),
		);
		await runner.emit({ type: "agent_end", messages: [] });
		expect(contexts[0]).toBe(contexts[1]);
	});
});

describe("tool_call gate", () => {
	it("mutations chain and the first block wins", async () => {
		const seenByLater: unknown[] = [];
		const { runner } = await runnerWith(
			(pi) =>
				pi.on("tool_call", (event) => {
					(event.input as Record<string, unknown>).command = "ls -la";
				}),
			(pi) =>
				pi.on("tool_call", (event) => {
					seenByLater.push((event.input as Record<string, unknown>).command);
					return { block: true };
				}),
			(pi) => pi.on("tool_call", () => void seenByLater.push("never")),
		);
		const event = toolCall("bash", { command: "ls" });
		expect(await runner.emitToolCall(event)).toEqual({
			block: true,
			reason: "Tool execution was blocked",
			terminate: false,
		});
		expect(event.input.command).toBe("ls -la");
		expect(seenByLater).toEqual(["ls -la"]);
	});

	it("fails closed: a throwing handler blocks with its message, is reported, and later handlers are skipped", async () => {
		const later: string[] = [];
		const { runner, errors } = await runnerWith(
			(pi) =>
				pi.on("tool_call", () => {
					throw new Error("policy unavailable");
				}),
			(pi) => pi.on("tool_call", () => void later.push("ran")),
		);
		expect(await runner.emitToolCall(toolCall("bash", { command: "rm -rf /" }))).toEqual({
			block: true,
			reason: "policy unavailable",
			terminate: false,
		});
		expect(later).toEqual([]);
		expect(errors).toMatchObject([{ extensionPath: "ext1", event: "tool_call" }]);
	});

	it("a non-Error throw blocks with the generic prefix; terminate is carried on blocks", async () => {
		const { runner: throwing } = await runnerWith((pi) =>
			pi.on("tool_call", () => {
				throw "nope";
			}),
		);
		expect(await throwing.emitToolCall(toolCall("read", { path: "a" }))).toMatchObject({
			reason: "Extension failed, blocking execution: nope",
		});
		const { runner: terminating } = await runnerWith((pi) =>
			pi.on("tool_call", () => ({ block: true, reason: "stop here", terminate: true })),
		);
		expect(await terminating.emitToolCall(toolCall("read", { path: "a" }))).toEqual({
			block: true,
			reason: "stop here",
			terminate: true,
		});
	});

	it("an abort during the handlers ends the call with Operation aborted", async () => {
		const controller = new AbortController();
		const { runner } = await runnerWith((pi) => pi.on("tool_call", () => void controller.abort()));
		expect(await runner.emitToolCall(toolCall("read", { path: "a" }), controller.signal)).toEqual({
			block: true,
			reason: "Operation aborted",
			terminate: false,
		});
	});

	it("an allowed call passes through", async () => {
		const { runner } = await runnerWith((pi) => pi.on("tool_call", () => ({ block: false })));
		expect(await runner.emitToolCall(toolCall("read", { path: "a" }))).toEqual({ block: false });
	});
});

describe("tool_result middleware", () => {
	it("patches merge, content without structuredContent drops it, a throwing handler's patch is discarded", async () => {
		const { runner, errors } = await runnerWith(
			(pi) => pi.on("tool_result", () => ({ details: { redacted: true } })),
			(pi) =>
				pi.on("tool_result", () => {
					throw new Error("redactor failed");
				}),
			(pi) => pi.on("tool_result", () => ({ content: [{ type: "text", text: "replaced" }] })),
		);
		const result = await runner.emitToolResult({
			type: "tool_result",
			toolCallId: "c",
			toolName: "lookup",
			input: {},
			content: [{ type: "text", text: "original" }],
			details: { raw: true },
			structuredContent: { value: 1 },
			isError: false,
		});
		expect(result.content).toEqual([{ type: "text", text: "replaced" }]);
		expect(result.details).toEqual({ redacted: true });
		expect(result).not.toHaveProperty("structuredContent");
		expect(result.isError).toBe(false);
		expect(errors).toMatchObject([{ extensionPath: "ext2", event: "tool_result" }]);
	});
});

describe("message_end", () => {
	it("applies a same-role replacement in place and rejects a different role", async () => {
		const { runner, errors } = await runnerWith(
			(pi) =>
				pi.on("message_end", (event) => ({
					message: { ...(event.message as object), content: [{ type: "text", text: "edited" }] } as AgentMessage,
				})),
			(pi) => pi.on("message_end", () => ({ message: { role: "user", content: "x", timestamp: 0 } })),
		);
		const message = {
			role: "assistant",
			content: [{ type: "text", text: "raw" }],
			stopReason: "stop",
		} as unknown as AgentMessage;
		expect(await runner.emitMessageEnd(message)).toBe(true);
		expect(message).toMatchObject({ role: "assistant", content: [{ type: "text", text: "edited" }] });
		expect(errors).toMatchObject([
			{
				extensionPath: "ext2",
				event: "message_end",
				error: "message_end handlers must return a message with the same role",
			},
		]);
	});
});

describe("input", () => {
	it("chains transforms; handled stops later handlers; throwing handlers are fail-open", async () => {
		const seen: string[] = [];
		const { runner, errors } = await runnerWith(
			(pi) => pi.on("input", (event) => ({ action: "transform", text: `${event.text}!` })),
			(pi) =>
				pi.on("input", () => {
					throw new Error("broken");
				}),
			(pi) => pi.on("input", (event) => void seen.push(event.text)),
		);
		expect(await runner.emitInput({ text: "/skill:x hi", source: "interactive" })).toEqual({
			action: "transform",
			text: "/skill:x hi!",
		});
		expect(seen).toEqual(["/skill:x hi!"]);
		expect(errors).toHaveLength(1);

		const { runner: handling } = await runnerWith(
			(pi) => pi.on("input", () => ({ action: "handled" })),
			(pi) => pi.on("input", () => void seen.push("after handled")),
		);
		expect(await handling.emitInput({ text: "hi", source: "rpc" })).toEqual({ action: "handled" });
		expect(seen).not.toContain("after handled");
	});

	it("reports continue when nothing changed", async () => {
		const { runner } = await runnerWith((pi) => pi.on("input", () => ({ action: "continue" })));
		expect(await runner.emitInput({ text: "hi", source: "extension" })).toEqual({ action: "continue" });
	});
});

describe("before_agent_start", () => {
	const baseOptions = () => ({
		cwd: "/",
		selectedTools: ["read", "bash"],
		hiddenTools: [],
		toolSnippets: {},
		toolGuidelines: {},
		promptGuidelines: [],
		appendSystemPrompt: "",
		sections: {},
		contextFiles: [],
		skills: [],
	});

	it("collects messages in order and chains the forced system prompt", async () => {
		const seenPrompts: string[] = [];
		const { runner } = await runnerWith(
			(pi) =>
				pi.on("before_agent_start", (event) => {
					seenPrompts.push(event.systemPrompt);
					return { systemPrompt: "forced", message: { customType: "a", content: "first", display: false } };
				}),
			(pi) =>
				pi.on("before_agent_start", (event) => {
					seenPrompts.push(event.systemPrompt);
					event.systemPromptOptions.sections.extra = "more";
					return { message: { customType: "b", content: "second", display: true } };
				}),
		);
		const outcome = await runner.emitBeforeAgentStart(
			{ messageType: "user", prompt: "hi" },
			baseOptions(),
			(options) => `rendered with ${options.selectedTools.join(",")}`,
		);
		expect(seenPrompts).toEqual(["rendered with read,bash", "forced"]);
		expect(outcome.messages.map((message) => message.customType)).toEqual(["a", "b"]);
		expect(outcome.systemPromptOptions.forceSystemPrompt).toBe("forced");
		expect(outcome.systemPromptOptions.sections).toEqual({ extra: "more" });
		expect(outcome.selectedToolsChanged).toBe(false);
	});

	it("detects a selectedTools edit", async () => {
		const { runner } = await runnerWith((pi) =>
			pi.on("before_agent_start", (event) => {
				event.systemPromptOptions.selectedTools.reverse();
			}),
		);
		const outcome = await runner.emitBeforeAgentStart({ messageType: "user", prompt: "hi" }, baseOptions(), () => "");
		expect(outcome.selectedToolsChanged).toBe(true);
	});
});

describe("context hooks", () => {
	const system = {
		role: "system",
		content: "prompt",
		sections: { base: "prompt" },
		timestamp: 1,
	} as unknown as AgentMessage;
	const patch = {
		role: "system",
		content: "patch",
		sections: { extra: "x" },
		timestamp: 3,
	} as unknown as AgentMessage;
	const user = { role: "user", content: "hello", timestamp: 2 } as AgentMessage;
	const reply = { role: "user", content: "again", timestamp: 4 } as AgentMessage;

	it("hides system messages; an unchanged list keeps them in place, with in-place edits applied", async () => {
		let seenRoles: string[] = [];
		const { runner } = await runnerWith((pi) =>
			pi.on("context", (event) => {
				seenRoles = event.messages.map((message) => (message as { role: string }).role);
				(event.messages[0] as { content: string }).content = "edited";
			}),
		);
		const out = await runner.emitContext([system, user, patch, reply]);
		expect(seenRoles).toEqual(["user", "user"]);
		expect(out.map((message) => (message as { content: unknown }).content)).toEqual([
			"prompt",
			"edited",
			"patch",
			"again",
		]);
		expect((user as { content: unknown }).content).toBe("hello");
	});

	it("a changed list gets one folded system head; dropping everything keeps the prompt", async () => {
		const { runner } = await runnerWith((pi) => pi.on("context", () => ({ messages: [] })));
		const out = await runner.emitContext([system, user, patch, reply]);
		expect(out).toHaveLength(1);
		expect(out[0]).toMatchObject({ role: "system" });
	});

	it("context_with_system: removing the leading system message is reported but honoured", async () => {
		const { runner, errors } = await runnerWith((pi) =>
			pi.on("context_with_system", (event) => ({ messages: event.messages.slice(1) })),
		);
		const out = await runner.emitContextWithSystem([system, user]);
		expect(out).toEqual([user]);
		expect(errors).toMatchObject([{ event: "context_with_system" }]);
	});
});

describe("provider hooks", () => {
	it("headers are edited in place (null deletes); payload replacements chain; undefined keeps", async () => {
		const payloads: unknown[] = [];
		const { runner } = await runnerWith(
			(pi) => {
				pi.on("before_provider_headers", (event) => {
					event.headers["x-extra"] = "1";
					event.headers.authorization = null;
				});
				pi.on("before_provider_request", () => ({ replaced: 1 }));
			},
			(pi) =>
				pi.on("before_provider_request", (event) => {
					payloads.push(event.payload);
					return undefined;
				}),
		);
		const headers = await runner.emitBeforeProviderHeaders({ authorization: "Bearer k" });
		expect(headers).toEqual({ authorization: null, "x-extra": "1" });
		expect(await runner.emitBeforeProviderRequest({ original: true })).toEqual({ replaced: 1 });
		expect(payloads).toEqual([{ replaced: 1 }]);
	});

	it("cache_warming_decision: the last override wins", async () => {
		const { runner } = await runnerWith(
			(pi) => pi.on("cache_warming_decision", () => ({ action: "stop" })),
			(pi) => pi.on("cache_warming_decision", () => ({ action: "warm" })),
			(pi) => pi.on("cache_warming_decision", () => undefined),
		);
		const action = await runner.emitCacheWarmingDecision({
			type: "cache_warming_decision",
			warmCost: 1,
			missCost: 2,
			continuationProbability: 0.5,
			action: "stop",
		});
		expect(action).toBe("warm");
	});
});

describe("user_bash", () => {
	const event = { type: "user_bash", command: "ls", excludeFromContext: false, cwd: "/" } as const;
	const result = { output: "x", exitCode: 0, cancelled: false, truncated: false };

	it("undefined runs locally; operations and results are returned", async () => {
		const operations = { exec: async () => ({ exitCode: 0 }) };
		expect(await (await runnerWith((pi) => pi.on("user_bash", () => undefined))).runner.emitUserBash(event)).toEqual({
			kind: "local",
		});
		expect(
			await (await runnerWith((pi) => pi.on("user_bash", () => ({ operations }) as never))).runner.emitUserBash(
				event,
			),
		).toEqual({ kind: "operations", operations });
		expect(
			await (await runnerWith((pi) => pi.on("user_bash", () => ({ result })))).runner.emitUserBash(event),
		).toEqual({
			kind: "result",
			result,
		});
	});

	it("fails closed on both/neither/invalid shapes and on throws, skipping later handlers", async () => {
		for (const answer of [
			{ operations: { exec: () => {} }, result },
			{},
			{ result: { output: 1 } },
			{ operations: {} },
		]) {
			const later: string[] = [];
			const { runner, errors } = await runnerWith(
				(pi) => pi.on("user_bash", () => answer as never),
				(pi) => pi.on("user_bash", () => void later.push("ran")),
			);
			expect(await runner.emitUserBash(event)).toEqual({ kind: "abort" });
			expect(errors[0]?.error).toMatch(/^Invalid user_bash handler result: /);
			expect(later).toEqual([]);
		}
		const { runner, errors } = await runnerWith((pi) =>
			pi.on("user_bash", () => {
				throw new Error("backend down");
			}),
		);
		expect(await runner.emitUserBash(event)).toEqual({ kind: "abort" });
		expect(errors).toMatchObject([{ event: "user_bash", error: "backend down" }]);
	});
});

describe("session_before_*", () => {
	const compactEvent = { type: "session_before_compact" } as never;

	it("merges results field-wise (tau #1): {compaction} then {} keeps the compaction", async () => {
		const compaction = { summary: "s", firstKeptEntryId: "e1", tokensBefore: 10 };
		const { runner } = await runnerWith(
			(pi) => pi.on("session_before_compact", () => ({ compaction })),
			(pi) => pi.on("session_before_compact", () => ({})),
		);
		expect(await runner.emit(compactEvent)).toEqual({ compaction });
	});

	it("the first cancel wins and stops; an erroring handler does not cancel", async () => {
		const later: string[] = [];
		const { runner, errors } = await runnerWith(
			(pi) =>
				pi.on("session_before_switch", () => {
					throw new Error("x");
				}),
			(pi) => pi.on("session_before_switch", () => ({ cancel: true })),
			(pi) => pi.on("session_before_switch", () => void later.push("ran")),
		);
		expect(await runner.emit({ type: "session_before_switch", reason: "new" })).toEqual({ cancel: true });
		expect(later).toEqual([]);
		expect(errors).toHaveLength(1);
		const { runner: quiet } = await runnerWith((pi) =>
			pi.on("session_before_fork", () => {
				throw new Error("x");
			}),
		);
		expect(await quiet.emit({ type: "session_before_fork", entryId: "e", position: "before" })).toBeUndefined();
	});
});

describe("actionable boundaries", () => {
	const preview = (entries: readonly unknown[]) => {
		if (entries.some((entry) => (entry as { type: string }).type === "context_edit")) {
			throw new Error("unknown targetId");
		}
		return {
			contextEntries: [],
			contextMessages: [],
			llmMessages: [],
			pendingMessages: [],
			canContinue: entries.length > 0,
		};
	};
	const base = {
		type: "turn_end" as const,
		turnIndex: 0,
		message: { role: "assistant" } as never,
		toolResults: [],
		messageEntryId: "a1",
		toolResultEntryIds: [],
		outcome: "completed" as const,
	};

	it("chains proposals: later handlers see earlier entries and omitted fields are kept", async () => {
		const seen: unknown[] = [];
		const { runner } = await runnerWith(
			(pi) => pi.on("turn_end", () => ({ entries: [{ type: "custom", customType: "a" }], continue: true })),
			(pi) =>
				pi.on("turn_end", (event) => {
					seen.push(event.entries.length, event.continue, event.context.canContinue);
					return { entries: [...event.entries, { type: "custom", customType: "b" }] };
				}),
		);
		const proposal = await runner.emitBoundary(base, preview);
		expect(seen).toEqual([1, true, true]);
		expect(proposal).toEqual({
			entries: [
				{ type: "custom", customType: "a" },
				{ type: "custom", customType: "b" },
			],
			continue: true,
			valid: true,
		});
	});

	it("an invalid final proposal is reported and discarded whole", async () => {
		const { runner, errors } = await runnerWith((pi) =>
			pi.on("turn_end", () => ({
				entries: [
					{ type: "custom", customType: "a" },
					{ type: "context_edit", targetId: "missing", replacement: null },
				],
				continue: true,
			})),
		);
		expect(await runner.emitBoundary(base, preview)).toEqual({ entries: [], continue: false, valid: false });
		expect(errors).toMatchObject([
			{ extensionPath: "<boundary>", error: "Invalid boundary entries: unknown targetId" },
		]);
	});
});

describe("resources_discover", () => {
	it("concatenates paths tagged with the extension", async () => {
		const { runner } = await runnerWith(
			(pi) => pi.on("resources_discover", () => ({ skillPaths: ["/a"] })),
			(pi) => pi.on("resources_discover", () => ({ skillPaths: ["/b"], promptPaths: ["/p"] })),
		);
		expect(await runner.emitResourcesDiscover({ type: "resources_discover", cwd, reason: "startup" })).toEqual({
			skillPaths: [
				{ path: "/a", extensionPath: "ext1" },
				{ path: "/b", extensionPath: "ext2" },
			],
			promptPaths: [{ path: "/p", extensionPath: "ext2" }],
			themePaths: [],
		});
	});
});

describe("contexts, UI and staleness", () => {
	it("without a bound UI, ctx.hasUI is false and dialogs resolve with defaults", async () => {
		let observed: unknown[] = [];
		const { runner } = await runnerWith((pi) =>
			pi.on("agent_start", async (_event, ctx) => {
				observed = [
					ctx.hasUI,
					ctx.mode,
					await ctx.ui.select("t", ["a"]),
					await ctx.ui.confirm("t", "m"),
					ctx.ui.getEditorText(),
				];
			}),
		);
		await runner.emit({ type: "agent_start" });
		expect(observed).toEqual([false, "print", undefined, false, ""]);
	});

	it("the no-op UI emits no ui_prompt events", async () => {
		const events: string[] = [];
		const { runner } = await runnerWith((pi) => {
			pi.on("ui_prompt_start", (event) => void events.push(event.type));
			pi.on("ui_prompt_end", (event) => void events.push(event.type));
		});
		await runner.createContext().ui.select("Pick", ["a"]);
		await new Promise((resolve) => setImmediate(resolve));
		expect(events).toEqual([]);
	});

	it("a bound UI emits coalesced ui_prompt events for nested dialogs", async () => {
		const events: string[] = [];
		let resolveOuter!: (value: string) => void;
		const { runner } = await runnerWith((pi) => {
			pi.on("ui_prompt_start", (event) => void events.push(`start:${event.kind}:${event.title}`));
			pi.on("ui_prompt_end", (event) => void events.push(`end:${event.kind}:${event.title}`));
		});
		const ui = {
			select: () => new Promise<string>((resolve) => (resolveOuter = resolve)),
			confirm: async () => true,
		} as never;
		runner.setUIContext(ui, "tui");
		const ctx = runner.createContext();
		expect(ctx.hasUI).toBe(true);
		const outer = ctx.ui.select("Pick", ["a"]);
		await ctx.ui.confirm("Nested", "?");
		resolveOuter("a");
		await outer;
		await Promise.resolve();
		await Promise.resolve();
		expect(events).toEqual(["start:select:Pick", "end:select:Pick"]);
	});

	it("after invalidation, captured ctx and pi throw the stale error and pi.events subscriptions are gone", async () => {
		let captured!: ExtensionAPI;
		const deliveries: unknown[] = [];
		const { runner, errors, runtime } = await runnerWith((pi) => {
			captured = pi;
			pi.events.on("chan", (data) => {
				deliveries.push(data);
				throw new Error("late");
			});
		});
		const ctx = runner.createContext();
		const commandCtx = runner.createCommandContext();
		runtime.eventBus.emit("chan", 1);
		expect(errors).toMatchObject([{ extensionPath: "ext1", event: "events:chan", error: "late" }]);
		runner.invalidate();
		expect(() => ctx.cwd).toThrow(STALE_CONTEXT_MESSAGE);
		expect(() => commandCtx.model).toThrow(STALE_CONTEXT_MESSAGE);
		expect(() => captured.getActiveTools()).toThrow(STALE_CONTEXT_MESSAGE);
		expect(() => captured.registerCommand("x", { handler: async () => {} })).toThrow(STALE_CONTEXT_MESSAGE);
		runtime.eventBus.emit("chan", 2);
		expect(deliveries).toEqual([1]);
	});

	it("errors of handlers still running after invalidation are not reported", async () => {
		let release!: () => void;
		const pending = new Promise<void>((resolve) => (release = resolve));
		const { runner, errors } = await runnerWith((pi) =>
			pi.on("agent_end", async () => {
				await pending;
				throw new Error("after replacement");
			}),
		);
		const dispatch = runner.emit({ type: "agent_end", messages: [] });
		runner.invalidate();
		release();
		await dispatch;
		expect(errors).toEqual([]);
	});

	it("command contexts reject session control when the host bound none (tau #2)", async () => {
		const { runner } = await runnerWith(() => {});
		const ctx = runner.createCommandContext();
		await expect(ctx.newSession()).rejects.toThrow("does not provide session control");
		expect(ctx.cwd).toBe(cwd);
	});

	it("after binding, actions reach the session and registering a tool refreshes its registry", async () => {
		let captured!: ExtensionAPI;
		const { session } = await runnerWith((pi) => {
			captured = pi;
		});
		captured.appendEntry("state", { n: 1 });
		captured.registerTool({
			name: "late",
			label: "late",
			description: "late",
			parameters: { type: "object", properties: {} } as never,
			execute: async () => ({ content: [], details: undefined }),
		});
		expect(session.calls).toEqual([["appendEntry", "state", { n: 1 }], ["refreshTools"]]);
		expect(captured.getActiveTools()).toEqual(["read"]);
	});
});
