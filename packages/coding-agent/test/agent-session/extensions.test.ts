import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import type { AnyToolDefinition } from "../../src/core/extensions/index.js";
import { createHarness, gate, heldResponse, textOfMessage } from "./harness.js";

function recordingTool(calls: unknown[]): AnyToolDefinition {
	return {
		name: "record",
		label: "Record",
		description: "Records its input",
		parameters: Type.Object({ value: Type.String() }),
		execute: async (_id, params) => {
			const { value } = params as { value: string };
			calls.push(params);
			return { content: [{ type: "text", text: `recorded ${value}` }], details: undefined };
		},
	};
}

const callRecord = (value: string) =>
	fauxAssistantMessage(fauxToolCall("record", { value }, { id: "r1" }), { stopReason: "toolUse" });

describe("extensions through a real session", () => {
	it("a tool_call handler that throws blocks the call (fail-closed): the tool never runs", async () => {
		const calls: unknown[] = [];
		const toolResults: unknown[] = [];
		const h = await createHarness({
			session: { customTools: [recordingTool(calls)] },
			extension: (pi: ExtensionAPI) => {
				pi.on("tool_call", () => {
					throw new Error("policy engine crashed");
				});
				pi.on("tool_result", (event) => {
					toolResults.push(event);
					return undefined;
				});
			},
		});
		h.faux.setResponses([callRecord("x"), fauxAssistantMessage("done")]);
		await h.session.prompt("go");
		expect(calls).toEqual([]);
		expect(toolResults).toEqual([]);
		const end = h.events.find((event) => event.type === "tool_execution_end");
		expect(end).toMatchObject({ isError: true });
		const result = h.session.messages.find((message) => message.role === "toolResult")!;
		expect(textOfMessage(result)).toBe("policy engine crashed");
	});

	it("a tool_call handler may rewrite the input the tool executes with", async () => {
		const calls: unknown[] = [];
		const h = await createHarness({
			session: { customTools: [recordingTool(calls)] },
			extension: (pi: ExtensionAPI) => {
				pi.on("tool_call", (event) => {
					(event.input as { value: string }).value = "rewritten";
					return undefined;
				});
			},
		});
		h.faux.setResponses([callRecord("original"), fauxAssistantMessage("done")]);
		await h.session.prompt("go");
		expect(calls).toEqual([{ value: "rewritten" }]);
	});

	it("message_end replacement is applied in place: agent state, subscribers and the persisted entry", async () => {
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("message_end", (event) =>
					event.message.role === "assistant"
						? { message: { ...event.message, content: [{ type: "text", text: "REDACTED" }] } }
						: undefined,
				);
			},
		});
		let seen = "";
		h.session.subscribe((event) => {
			if (event.type === "message_end" && event.message.role === "assistant") seen = textOfMessage(event.message);
		});
		h.faux.setResponses([fauxAssistantMessage("secret")]);
		await h.session.prompt("hi");
		expect(seen).toBe("REDACTED");
		expect(textOfMessage(h.session.agent.state.messages.at(-1)!)).toBe("REDACTED");
		const stored = h.sessionManager.getBranch().at(-1)!;
		expect(stored.type === "message" && textOfMessage(stored.message)).toBe("REDACTED");
	});

	it("before_agent_start messages follow the starting message in handler order", async () => {
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("before_agent_start", () => ({
					message: { customType: "a", content: "first note", display: false },
				}));
				pi.on("before_agent_start", () => ({
					message: { customType: "b", content: "second note", display: false },
				}));
			},
		});
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("question");
		const kinds = h.sessionManager
			.getBranch()
			.flatMap((entry) =>
				entry.type === "message"
					? [entry.message.role]
					: entry.type === "custom_message"
						? [`custom:${entry.customType}`]
						: [],
			);
		expect(kinds).toEqual(["system", "user", "custom:a", "custom:b", "assistant"]);
		// Custom messages reach the model as user-role text.
		const request = h.requests[0]!.messages.filter((message) => message.role === "user").map((m) =>
			textOfMessage(m as never),
		);
		expect(request).toEqual(["question", "first note", "second note"]);
	});

	it("session_before_compact can cancel (aborted, no error) or supply the summary (fromExtension)", async () => {
		for (const mode of ["cancel", "supply"] as const) {
			const failed: unknown[] = [];
			const compacted: { fromExtension: boolean }[] = [];
			const h = await createHarness({
				settings: { compaction: { enabled: false, reserveTokens: 200, keepRecentTokens: 20 } },
				extension: (pi: ExtensionAPI) => {
					pi.on("session_before_compact", (event) =>
						mode === "cancel"
							? { cancel: true }
							: {
									compaction: {
										summary: "EXTENSION SUMMARY",
										firstKeptEntryId: event.preparation.firstKeptEntryId,
										tokensBefore: 123,
										details: { readFiles: [], modifiedFiles: [] },
									},
								},
					);
					pi.on("session_compact_failed", (event) => {
						failed.push(event);
					});
					pi.on("session_compact", (event) => {
						compacted.push(event);
					});
				},
			});
			h.faux.setResponses([fauxAssistantMessage("word ".repeat(400)), fauxAssistantMessage("word ".repeat(400))]);
			await h.session.prompt("one ".repeat(400));
			await h.session.prompt("two ".repeat(400));
			if (mode === "cancel") {
				await expect(h.session.compact()).rejects.toThrow();
				const end = h.events.find((event) => event.type === "compaction_end");
				expect(end).toMatchObject({ reason: "manual", aborted: true, result: undefined });
				expect(end && "errorMessage" in end ? end.errorMessage : undefined).toBeUndefined();
				expect(failed).toMatchObject([{ reason: "manual", aborted: true }]);
			} else {
				const result = await h.session.compact();
				expect(result.summary).toBe("EXTENSION SUMMARY");
				expect(compacted).toMatchObject([{ fromExtension: true }]);
				expect(h.faux.state.callCount).toBe(2);
			}
		}
	});

	it("a prompt sent from an agent_settled handler runs only after all settled handlers", async () => {
		const order: string[] = [];
		let sent = false;
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("agent_settled", async () => {
					order.push("settled-1");
					if (!sent) {
						sent = true;
						pi.sendUserMessage("follow-up from extension");
					}
				});
				pi.on("agent_settled", async () => {
					order.push("settled-2");
				});
				pi.on("agent_start", () => {
					order.push("agent_start");
				});
			},
		});
		let settledCount = 0;
		const secondSettle = new Promise<void>((resolve) => {
			h.session.subscribe((event) => {
				if (event.type === "agent_settled" && ++settledCount === 2) resolve();
			});
		});
		h.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await h.session.prompt("hi");
		await secondSettle;
		expect(order).toEqual(["agent_start", "settled-1", "settled-2", "agent_start", "settled-1", "settled-2"]);
		expect(h.session.getLastAssistantText()).toBe("two");
	});

	it("turn_end runs after the turn was persisted; an invalid draft discards the whole proposal", async () => {
		const resolved: boolean[] = [];
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("turn_end", (event, ctx) => {
					resolved.push(ctx.sessionManager.getEntry(event.messageEntryId) !== undefined);
					return {
						entries: [
							{ type: "custom", customType: "kept?" },
							{ type: "context_edit", targetId: "no-such-entry", replacement: null },
						],
					};
				});
			},
		});
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("hi");
		expect(resolved).toEqual([true]);
		expect(
			h.sessionManager.getEntries().some((entry) => entry.type === "custom" && entry.customType === "kept?"),
		).toBe(false);
	});

	it("a tool registered after binding is listed at once and declared on the next request", async () => {
		let api: ExtensionAPI | undefined;
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				api = pi;
			},
		});
		await h.session.bindExtensions({});
		api!.registerTool(recordingTool([]));
		expect(h.session.getAllTools().map((tool) => tool.name)).toContain("record");
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("hi");
		const declared = h.requests[0]!.messages.filter((message) => message.role === "system").flatMap((message) =>
			((message as { toolsAdded?: { name: string }[] }).toolsAdded ?? []).map((t) => t.name),
		);
		expect(declared).toContain("record");
	});
});

describe("ctx.executeTool through a real session", () => {
	it("nested calls get <parent>/N ids, parentToolCallId on events, the gate, and a nestedCalls record", async () => {
		const gated: { toolName: string; parentToolCallId?: string }[] = [];
		const caller: AnyToolDefinition = {
			name: "caller",
			label: "Caller",
			description: "Calls ls twice through ctx.executeTool",
			parameters: Type.Object({}),
			execute: async (_id, _params, _signal, _onUpdate, ctx) => {
				const first = await ctx.executeTool("ls", { path: "." });
				const second = await ctx.executeTool("ls", { path: "." });
				return {
					content: [{ type: "text", text: `${first.isError}/${second.isError}` }],
					details: undefined,
				};
			},
		};
		const h = await createHarness({
			session: { customTools: [caller], tools: ["caller", "ls"] },
			extension: (pi: ExtensionAPI) => {
				pi.on("tool_call", (event) => {
					gated.push({
						toolName: event.toolName,
						...(event.parentToolCallId ? { parentToolCallId: event.parentToolCallId } : {}),
					});
					return undefined;
				});
			},
		});
		h.faux.setResponses([
			fauxAssistantMessage(fauxToolCall("caller", {}, { id: "root" }), { stopReason: "toolUse" }),
			fauxAssistantMessage("done"),
		]);
		await h.session.prompt("go");
		expect(gated).toEqual([
			{ toolName: "caller" },
			{ toolName: "ls", parentToolCallId: "root" },
			{ toolName: "ls", parentToolCallId: "root" },
		]);
		const nestedStarts = h.events.filter(
			(event) => event.type === "tool_execution_start" && "parentToolCallId" in event && event.parentToolCallId,
		);
		expect(nestedStarts.map((event) => (event.type === "tool_execution_start" ? event.toolCallId : ""))).toEqual([
			"root/1",
			"root/2",
		]);
		const result = h.session.messages.find((message) => message.role === "toolResult") as unknown as {
			content: { text: string }[];
			nestedCalls?: { calls: { id: string }[] };
		};
		expect(result.content[0]!.text).toBe("false/false");
		expect(result.nestedCalls?.calls.map((call) => call.id)).toEqual(["root/1", "root/2"]);
		// Nested calls add nothing to the transcript.
		expect(h.session.messages.filter((message) => message.role === "toolResult")).toHaveLength(1);
	});
});

describe("turn_end continuation", () => {
	it("continue with a committed draft makes exactly one extra request; without a draft it is reported and ignored", async () => {
		for (const withDraft of [true, false]) {
			const errors: string[] = [];
			let asked = false;
			const h = await createHarness({
				extension: (pi: ExtensionAPI) => {
					pi.on("turn_end", () => {
						if (asked) return undefined;
						asked = true;
						return withDraft
							? {
									entries: [
										{
											type: "custom_message",
											customType: "nudge",
											content: "one more thing",
											display: false,
										},
									],
									continue: true,
								}
							: { continue: true };
					});
				},
			});
			await h.session.bindExtensions({ onError: (error) => errors.push(error.error) });
			h.faux.setResponses([fauxAssistantMessage("first"), fauxAssistantMessage("second")]);
			await h.session.prompt("hi");
			if (withDraft) {
				expect(h.faux.state.callCount).toBe(2);
				expect(h.session.getLastAssistantText()).toBe("second");
				expect(errors).toEqual([]);
			} else {
				expect(h.faux.state.callCount).toBe(1);
				expect(errors).toEqual(["turn_end requested continuation without runnable model context"]);
			}
		}
	});

	it("input events carry the source, and a triggered custom message starts a run as messageType custom", async () => {
		const sources: string[] = [];
		const starts: string[] = [];
		let api: ExtensionAPI | undefined;
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				api = pi;
				pi.on("input", (event) => {
					sources.push(event.source);
					return undefined;
				});
				pi.on("before_agent_start", (event) => {
					starts.push(event.messageType);
					return undefined;
				});
			},
		});
		h.faux.setResponses([fauxAssistantMessage("a"), fauxAssistantMessage("b"), fauxAssistantMessage("c")]);
		await h.session.prompt("typed");
		await h.session.prompt("from rpc", { source: "rpc" });
		await h.session.sendUserMessage("from an extension");
		expect(sources).toEqual(["interactive", "rpc", "extension"]);
		await h.session.sendCustomMessage(
			{ customType: "ping", content: "wake up", display: true },
			{ triggerTurn: true },
		);
		expect(starts).toEqual(["user", "user", "user", "custom"]);
		expect(api).toBeDefined();
	});
});

describe("abort and shutdown", () => {
	it("abort mid-stream settles aborted and skips agent_before_settle", async () => {
		const seen: string[] = [];
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("agent_before_settle", () => {
					seen.push("before_settle");
					return undefined;
				});
				pi.on("agent_settled", (event) => {
					seen.push(`settled:${event.aborted}`);
				});
			},
		});
		const hold = gate();
		h.faux.setResponses([heldResponse(hold, fauxAssistantMessage("never shown"))]);
		const running = h.session.prompt("hi");
		await hold.started;
		const aborting = h.session.abort();
		hold.release();
		await Promise.all([running, aborting]);
		expect(seen).toEqual(["settled:true"]);
		expect(h.events.at(-1)).toEqual({ type: "agent_settled", aborted: true });
	});

	it("shutdown() delivers session_shutdown to bound extensions, then disposes", async () => {
		const seen: string[] = [];
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("session_shutdown", (event) => {
					seen.push(event.reason);
				});
			},
		});
		await h.session.bindExtensions({});
		const ctx = h.session.extensionRunner.createContext();
		await h.session.shutdown();
		expect(seen).toEqual(["quit"]);
		expect(() => ctx.cwd).toThrow();
	});
});

describe("prepareLoadout", () => {
	it("replaces declared descriptions and hides declarations from requests; the tool stays active", async () => {
		const orchestrator: AnyToolDefinition = {
			name: "orchestrator",
			label: "Orchestrator",
			description: "Runs other tools",
			parameters: Type.Object({}),
			prepareLoadout: (loadout) => ({
				descriptions: { orchestrator: `Runs: ${loadout.declared.map((tool) => tool.name).join(", ")}` },
				hiddenDeclarations: ["ls"],
			}),
			execute: async () => ({ content: [{ type: "text", text: "ok" }], details: undefined }),
		};
		const h = await createHarness({
			session: { customTools: [orchestrator], tools: ["orchestrator", "ls", "read"] },
		});
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("hi");
		const declared = h.requests[0]!.messages.flatMap((message) =>
			((message as { toolsAdded?: { name: string; description: string }[] }).toolsAdded ?? []).map((tool) => tool),
		);
		expect(declared.map((tool) => tool.name)).toEqual(["orchestrator", "read"]);
		expect(declared[0]!.description).toBe("Runs: orchestrator, ls, read");
		expect(h.session.getActiveToolNames()).toContain("ls");
		expect(h.session.getCallableToolNames()).toContain("ls");
		// The transcript still declares the hidden tool.
		const stored = h.session.messages.find((message) => message.role === "system") as unknown as {
			toolsAdded: { name: string }[];
		};
		expect(stored.toolsAdded.map((tool) => tool.name)).toContain("ls");
	});

	it("a throwing hook is reported and ignored", async () => {
		const errors: string[] = [];
		const broken: AnyToolDefinition = {
			name: "broken",
			label: "Broken",
			description: "Original description",
			parameters: Type.Object({}),
			prepareLoadout: () => {
				throw new Error("loadout bug");
			},
			execute: async () => ({ content: [{ type: "text", text: "ok" }], details: undefined }),
		};
		const h = await createHarness({ session: { customTools: [broken], tools: ["broken"] } });
		h.session.extensionRunner.onError((error) => errors.push(`${error.event}:${error.error}`));
		h.session.setActiveToolsByName(["broken"]);
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("hi");
		expect(errors).toContain("prepare_loadout:loadout bug");
		expect(JSON.stringify(h.requests[0])).toContain("Original description");
	});

	it("a throwing command is reported at the source as extensionPath command:<name>, event command", async () => {
		const errors: unknown[] = [];
		const dispositions: string[] = [];
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.registerCommand("boom", {
					handler: async () => {
						throw new Error("kaboom");
					},
				});
			},
		});
		h.session.extensionRunner.onError((error) => errors.push(error));
		await h.session.prompt("/boom now", { preflightResult: (disposition) => dispositions.push(disposition) });
		expect(errors).toEqual([
			expect.objectContaining({ extensionPath: "command:boom", event: "command", error: "kaboom" }),
		]);
		expect(dispositions).toEqual(["handled"]);
	});
});
