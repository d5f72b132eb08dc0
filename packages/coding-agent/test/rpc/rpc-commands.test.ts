import { createProvider, envApiKeyAuth, fauxAssistantMessage } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { gate, RpcHarness } from "./harness.js";

let harness: RpcHarness | undefined;
afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

describe("RPC prompt dispositions", () => {
	it("prompt while idle answers started before agent_start, and the run settles", async () => {
		harness = await RpcHarness.start();
		harness.faux.setResponses([fauxAssistantMessage("hi")]);
		const settled = harness.waitFor((r) => r.type === "agent_settled");
		const response = await harness.send({ id: "p1", type: "prompt", message: "hello" });
		expect(response).toEqual({
			id: "p1",
			type: "response",
			command: "prompt",
			success: true,
			data: { disposition: "started" },
		});
		await settled;
		const types = harness.records.map((r) => r.type);
		expect(types.indexOf("response")).toBeLessThan(types.indexOf("agent_start"));
		expect(await harness.data({ type: "get_last_assistant_text" })).toEqual({ text: "hi" });
	});

	it("prompt while streaming fails without streamingBehavior and queues with steer", async () => {
		harness = await RpcHarness.start();
		const hold = gate();
		harness.faux.setResponses([
			async () => {
				await hold.wait();
				return fauxAssistantMessage("first");
			},
			fauxAssistantMessage("second"),
		]);
		await harness.data({ type: "prompt", message: "one" });
		await hold.started;
		const busy = await harness.send({ id: "p2", type: "prompt", message: "two" });
		expect(busy).toEqual({
			id: "p2",
			type: "response",
			command: "prompt",
			success: false,
			error: "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.",
		});
		const before = harness.records.length;
		const queued = await harness.send({ id: "p3", type: "prompt", message: "two", streamingBehavior: "steer" });
		expect(queued.data).toEqual({ disposition: "queued" });
		const update = harness.records.slice(before).findIndex((r) => r.type === "queue_update");
		const answer = harness.records.slice(before).findIndex((r) => r.id === "p3");
		expect(update).toBeGreaterThanOrEqual(0);
		expect(update).toBeLessThan(answer);
		expect(harness.records.slice(before)[update]).toEqual({ type: "queue_update", steering: ["two"], followUp: [] });
		const settled = harness.waitFor((r) => r.type === "agent_settled");
		hold.open();
		await settled;
	});

	it("a registered extension command is handled and starts no run; an input handler can consume", async () => {
		const calls: string[] = [];
		harness = await RpcHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.registerCommand("hello", {
					description: "says hello",
					handler: async (args) => {
						calls.push(args);
					},
				});
				pi.on("input", (event) => (event.text === "swallow" ? { action: "handled" } : undefined));
			},
		});
		expect(await harness.data({ type: "prompt", message: "/hello world" })).toEqual({ disposition: "handled" });
		expect(calls).toEqual(["world"]);
		expect(await harness.data({ type: "prompt", message: "swallow" })).toEqual({ disposition: "handled" });
		expect(harness.records.some((r) => r.type === "agent_start")).toBe(false);
		for (const type of ["steer", "follow_up"]) {
			const failure = await harness.send({ type, message: "/hello" });
			expect(failure.error).toBe(
				'Extension command "/hello" cannot be queued. Use prompt() or execute the command when not streaming.',
			);
		}
	});

	it("an extension command that prompts is handled, and its own run produces the events", async () => {
		harness = await RpcHarness.start({
			loader: {
				extensionFactories: [
					(pi: ExtensionAPI) =>
						pi.registerCommand("ask", {
							handler: async (args) => {
								pi.sendUserMessage(`question: ${args}`);
							},
						}),
				],
			},
		});
		harness.faux.setResponses([fauxAssistantMessage("answer from the command's run")]);
		const settled = harness.waitFor((r) => r.type === "agent_settled");
		expect(await harness.data({ type: "prompt", message: "/ask why" })).toEqual({ disposition: "handled" });
		await settled;
		const user = harness.records.find((r) => r.type === "message_start" && r.message.role === "user");
		expect(user?.message.content).toEqual([{ type: "text", text: "question: why" }]);
		expect(harness.records.filter((r) => r.type === "agent_start")).toHaveLength(1);
		expect(await harness.data({ type: "get_last_assistant_text" })).toEqual({
			text: "answer from the command's run",
		});
	});

	it("a prompt deferred while the session settles answers with its failure", async () => {
		const settling = gate();
		let first = true;
		harness = await RpcHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.on("agent_settled", async () => {
					if (!first) return;
					first = false;
					await settling.wait();
				});
			},
		});
		const session = harness.runtime.session;
		const locked = createProvider({
			id: "locked",
			auth: { apiKey: envApiKeyAuth("Locked", ["TAU_TEST_LOCKED_PROVIDER_KEY_THAT_IS_NOT_SET"]) },
			models: [{ ...harness.faux.getModel(), provider: "locked", id: "locked-1" }],
			api: harness.faux.provider as never,
		});
		session.modelRuntime.registerProvider("locked", locked);
		harness.faux.setResponses([fauxAssistantMessage("one")]);
		expect(await harness.data({ type: "prompt", message: "first" })).toEqual({ disposition: "started" });
		await settling.started;
		// Observe the moment the RPC command reaches the session (it is deferred: settling is not over).
		const prompt = session.prompt.bind(session);
		const reached = new Promise<void>((resolve) => {
			session.prompt = (text, options) => {
				const result = prompt(text, options);
				resolve();
				return result;
			};
		});
		const answer = harness.send({ type: "prompt", message: "second" });
		await reached;
		// The deferred prompt meets a model without credentials once settling ends.
		(session.agent.state as { model: unknown }).model = session.modelRuntime.getModel("locked", "locked-1");
		settling.open();
		expect(await answer).toMatchObject({
			type: "response",
			command: "prompt",
			success: false,
			error: expect.stringContaining("No API key found for locked."),
		});
	});

	it("without a model: get_state reports Pi's stand-in model and prompt fails with the no-model guidance", async () => {
		harness = await RpcHarness.start({ noModel: true });
		const state = await harness.data({ type: "get_state" });
		expect(state).toMatchObject({ model: { id: "unknown", name: "unknown", api: "unknown", provider: "unknown" } });
		expect(await harness.send({ type: "prompt", message: "hi" })).toMatchObject({
			success: false,
			error: "No model selected. Set an API key in the environment (for example ANTHROPIC_API_KEY or OPENAI_API_KEY), add a provider to models.json in the agent directory or sign in with /login, then select a model with /model (RPC: set_model).",
		});
	});

	it("a failing extension command is reported as extension_error and still handled", async () => {
		harness = await RpcHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.registerCommand("boom", {
					handler: async () => {
						throw new Error("kaboom");
					},
				});
			},
		});
		expect(await harness.data({ type: "prompt", message: "/boom" })).toEqual({ disposition: "handled" });
		const error = await harness.waitFor((r) => r.type === "extension_error");
		expect(error).toEqual({
			type: "extension_error",
			extensionPath: "command:boom",
			event: "command",
			error: "kaboom",
		});
	});
});

describe("RPC queue and abort", () => {
	it("abort answers after the session is idle; queued messages survive; clear_queue empties them", async () => {
		harness = await RpcHarness.start();
		const hold = gate();
		harness.faux.setResponses([
			async (_context, options) => {
				await Promise.race([
					hold.wait(),
					new Promise((resolve) => options?.signal?.addEventListener("abort", resolve, { once: true })),
				]);
				return fauxAssistantMessage("late", { stopReason: "aborted" });
			},
		]);
		await harness.data({ type: "prompt", message: "one" });
		await hold.started;
		expect(await harness.data({ type: "follow_up", message: "later" })).toEqual({ disposition: "queued" });
		const abort = await harness.send({ id: "ab", type: "abort" });
		expect(abort).toEqual({ id: "ab", type: "response", command: "abort", success: true });
		const settled = harness.records.find((r) => r.type === "agent_settled");
		expect(settled).toEqual({ type: "agent_settled", aborted: true });
		expect(harness.records.indexOf(settled!)).toBeLessThan(harness.records.findIndex((r) => r.id === "ab"));
		const state = await harness.data({ type: "get_state" });
		expect(state.isStreaming).toBe(false);
		expect(state.pendingMessageCount).toBe(1);
		const before = harness.records.length;
		expect(await harness.data({ type: "clear_queue" })).toEqual({ steering: [], followUp: ["later"] });
		expect(harness.records.slice(before)).toContainEqual({ type: "queue_update", steering: [], followUp: [] });
		expect((await harness.data({ type: "get_state" })).pendingMessageCount).toBe(0);
	});

	it("responses arrive in completion order: a slow compact after a fast get_state", async () => {
		harness = await RpcHarness.start({ settings: { compaction: { keepRecentTokens: 1 } } });
		for (const n of [1, 2, 3]) {
			harness.faux.setResponses([fauxAssistantMessage(`answer ${n} ${"word ".repeat(200)}`)]);
			const settled = harness.waitForCount((r) => r.type === "agent_settled", n);
			await harness.data({ type: "prompt", message: `question ${n} ${"text ".repeat(200)}` });
			await settled;
		}
		const hold = gate();
		harness.faux.setResponses([
			async () => {
				await hold.wait();
				return fauxAssistantMessage("summary text");
			},
			fauxAssistantMessage("prefix summary"),
		]);
		const compact = harness.send({ id: "slow", type: "compact" });
		await hold.started;
		const fast = await harness.send({ id: "fast", type: "get_state" });
		expect(fast.success).toBe(true);
		hold.open();
		const done = await compact;
		const ids = harness.records.filter((r) => r.type === "response").map((r) => r.id);
		expect(ids.indexOf("fast")).toBeLessThan(ids.indexOf("slow"));
		expect(done.success).toBe(true);
		const data = done.data as { summary: string; firstKeptEntryId: string; tokensBefore: number };
		expect(data.summary).toContain("summary text");
		expect(typeof data.firstKeptEntryId).toBe("string");
		expect(typeof data.tokensBefore).toBe("number");
		expect(harness.records).toContainEqual({ type: "compaction_start", reason: "manual" });
		const end = harness.records.find((r) => r.type === "compaction_end") as Record<string, unknown>;
		expect(end).toMatchObject({ reason: "manual", aborted: false, willRetry: false });
		expect(end.result).toEqual(data);
	});

	it("a failed compact answers success:false and compaction_end carries errorMessage without result", async () => {
		harness = await RpcHarness.start();
		const failure = await harness.send({ id: "c", type: "compact" });
		expect(failure).toEqual({
			id: "c",
			type: "response",
			command: "compact",
			success: false,
			error: "Nothing to compact (session too small)",
		});
		const end = harness.records.find((r) => r.type === "compaction_end") as Record<string, unknown>;
		expect(end).not.toHaveProperty("result");
		expect(end.aborted).toBe(false);
		expect(end.errorMessage).toEqual(expect.stringContaining("Nothing to compact"));
	});
});

describe("RPC model and thinking commands", () => {
	it("set_model fails for an unknown pair and returns the full Model for a valid one", async () => {
		harness = await RpcHarness.start({ models: [{ id: "faux-1" }, { id: "faux-2", reasoning: true }] });
		expect(await harness.send({ id: "m1", type: "set_model", provider: "nope", modelId: "x" })).toEqual({
			id: "m1",
			type: "response",
			command: "set_model",
			success: false,
			error: "Model not found: nope/x",
		});
		const model = await harness.data({ type: "set_model", provider: "faux", modelId: "faux-2" });
		expect(model).toMatchObject({ id: "faux-2", provider: "faux", reasoning: true });
		for (const key of [
			"id",
			"name",
			"api",
			"provider",
			"baseUrl",
			"reasoning",
			"input",
			"contextWindow",
			"maxTokens",
			"cost",
		]) {
			expect(model).toHaveProperty(key);
		}
		expect((await harness.data({ type: "get_available_models" })).models).toHaveLength(2);
		const levels = (await harness.data({ type: "get_available_thinking_levels" })).levels as string[];
		expect(levels[0]).toBe("off");
		expect(levels.length).toBeGreaterThan(1);
		const before = harness.records.length;
		expect(await harness.send({ id: "t", type: "set_thinking_level", level: "high" })).toEqual({
			id: "t",
			type: "response",
			command: "set_thinking_level",
			success: true,
		});
		expect(harness.records.slice(before)).toContainEqual({ type: "thinking_level_changed", level: "high" });
		const cycled = await harness.data({ type: "cycle_thinking_level" });
		expect(levels).toContain(cycled.level);
		const cycleModel = await harness.data({ type: "cycle_model" });
		expect(cycleModel.model.id).toBe("faux-1");
		expect(cycleModel.isScoped).toBe(false);
		expect(cycleModel.thinkingLevel).toBe("off");
	});

	it("cycle_model walks the --models scope with its thinking levels and reports isScoped", async () => {
		harness = await RpcHarness.start({
			models: [{ id: "faux-1" }, { id: "faux-2", reasoning: true }, { id: "faux-3" }],
		});
		const session = harness.runtime.session;
		const model = (id: string) => session.modelRuntime.getModel("faux", id)!;
		session.setScopedModels([{ model: model("faux-1") }, { model: model("faux-2"), thinkingLevel: "high" }]);
		const next = await harness.data({ type: "cycle_model" });
		expect(next).toMatchObject({ model: { id: "faux-2" }, thinkingLevel: "high", isScoped: true });
		const back = await harness.data({ type: "cycle_model" });
		expect(back).toMatchObject({ model: { id: "faux-1" }, isScoped: true });
		expect((await harness.data({ type: "get_state" })).model.id).toBe("faux-1");
	});

	it("cycle_model with a single model returns data null; a non-reasoning model has only off", async () => {
		harness = await RpcHarness.start();
		const response = await harness.send({ id: "cm", type: "cycle_model" });
		expect(harness.rawLines.find((line) => line.includes('"id":"cm"'))).toBe(
			'{"id":"cm","type":"response","command":"cycle_model","success":true,"data":null}',
		);
		expect(response.data).toBeNull();
		expect(await harness.data({ type: "get_available_thinking_levels" })).toEqual({ levels: ["off"] });
		expect(await harness.data({ type: "cycle_thinking_level" })).toBeNull();
	});
});

describe("RPC session commands", () => {
	it("get_state omits model-less and unnamed fields for an in-memory session", async () => {
		harness = await RpcHarness.start();
		const state = await harness.data({ type: "get_state" });
		expect(Object.keys(state).sort()).toEqual(
			[
				"autoCompactionEnabled",
				"followUpMode",
				"isCompacting",
				"isStreaming",
				"messageCount",
				"model",
				"pendingMessageCount",
				"sessionId",
				"steeringMode",
				"thinkingLevel",
			].sort(),
		);
		expect(state).toMatchObject({
			thinkingLevel: "off",
			isStreaming: false,
			isCompacting: false,
			steeringMode: "one-at-a-time",
			followUpMode: "one-at-a-time",
			messageCount: 0,
			pendingMessageCount: 0,
		});
	});

	it("set_session_name validates, emits session_info_changed and shows in get_state", async () => {
		harness = await RpcHarness.start();
		expect((await harness.send({ type: "set_session_name", name: "   " })).error).toBe(
			"Session name cannot be empty",
		);
		const response = await harness.send({ type: "set_session_name", name: "  My run " });
		expect(response).not.toHaveProperty("data");
		expect(harness.records).toContainEqual({ type: "session_info_changed", name: "My run" });
		expect((await harness.data({ type: "get_state" })).sessionName).toBe("My run");
	});

	it("get_entries supports since cursors and reports unknown ids; clone of an empty session fails", async () => {
		harness = await RpcHarness.start();
		const all = await harness.data({ type: "get_entries" });
		expect(all.leafId).not.toBeUndefined();
		expect((await harness.send({ type: "get_entries", since: "nope" })).error).toBe("Entry not found: nope");
		const first = all.entries[0].id as string;
		const later = await harness.data({ type: "get_entries", since: first });
		expect(later.entries).toEqual(all.entries.slice(1));
		const tree = await harness.data({ type: "get_tree" });
		expect(Array.isArray(tree.tree)).toBe(true);
		expect(tree.leafId).toBe(all.leafId);
	});

	it("an empty session has leafId null and cannot be cloned", async () => {
		// A runtime-created session always records its model first, so the empty case is driven directly.
		const { commandHandlers } = await import("../../src/modes/rpc/command-handlers.js");
		const empty = { sessionManager: { getLeafId: () => null, getEntries: () => [] } } as never;
		expect(await commandHandlers.get_entries({ type: "get_entries" }, empty, {} as never)).toEqual({
			entries: [],
			leafId: null,
		});
		await expect(async () => commandHandlers.clone({ type: "clone" }, empty, {} as never)).rejects.toThrow(
			"Cannot clone session: no current entry selected",
		);
	});

	it("fork cancelled by an extension returns only cancelled:true; get_fork_messages lists user messages", async () => {
		harness = await RpcHarness.start({
			loader: {
				extensionFactories: [(pi: ExtensionAPI) => pi.on("session_before_fork", () => ({ cancel: true }))],
			},
		});
		harness.faux.setResponses([fauxAssistantMessage("ok")]);
		const settled = harness.waitFor((r) => r.type === "agent_settled");
		await harness.data({ type: "prompt", message: "fork me" });
		await settled;
		const forkMessages = (await harness.data({ type: "get_fork_messages" })).messages;
		expect(forkMessages).toHaveLength(1);
		expect(forkMessages[0].text).toBe("fork me");
		const response = await harness.send({ id: "f", type: "fork", entryId: forkMessages[0].entryId });
		expect(response).toEqual({
			id: "f",
			type: "response",
			command: "fork",
			success: true,
			data: { cancelled: true },
		});
		expect((await harness.send({ type: "fork", entryId: "missing" })).error).toBe("Invalid entry ID for forking");
	});

	it("new_session replaces the session and delivers session_start handler events", async () => {
		harness = await RpcHarness.start({
			loader: {
				extensionFactories: [
					(pi: ExtensionAPI) =>
						pi.on("session_start", (event) => {
							if (event.reason === "new") pi.appendEntry("marker", { fresh: true });
						}),
				],
			},
		});
		const before = (await harness.data({ type: "get_state" })).sessionId;
		expect(await harness.data({ type: "new_session", parentSession: "/tmp/parent.jsonl" })).toEqual({
			cancelled: false,
		});
		const after = (await harness.data({ type: "get_state" })).sessionId;
		expect(after).not.toBe(before);
		const appended = harness.records.find((r) => r.type === "entry_appended");
		expect(appended?.entry.customType).toBe("marker");
	});

	it("get_commands lists extension commands, then templates, then skills", async () => {
		const { mkdirSync, writeFileSync } = await import("node:fs");
		const { join } = await import("node:path");
		const { tempDir } = await import("./harness.js");
		const dir = tempDir("tau-rpc-res-");
		writeFileSync(join(dir, "review.md"), "---\ndescription: Review code\n---\nReview $@");
		mkdirSync(join(dir, "skills", "lint"), { recursive: true });
		writeFileSync(
			join(dir, "skills", "lint", "SKILL.md"),
			"---\nname: lint\ndescription: Lint things\n---\nRun the linter.",
		);
		harness = await RpcHarness.start({
			loader: {
				noSkills: false,
				noPromptTemplates: false,
				additionalPromptTemplatePaths: [join(dir, "review.md")],
				additionalSkillPaths: [join(dir, "skills")],
				extensionFactories: [
					(pi: ExtensionAPI) => pi.registerCommand("deploy", { description: "Ship", handler: async () => {} }),
				],
			},
		});
		const { commands } = await harness.data({ type: "get_commands" });
		const summary = (commands as { name: string; source: string; description?: string }[]).map((c) => [
			c.source,
			c.name,
			c.description,
		]);
		expect(summary).toEqual([
			["extension", "deploy", "Ship"],
			["prompt", "review", "Review code"],
			["skill", "skill:lint", "Lint things"],
		]);
		for (const command of commands) expect(typeof command.sourceInfo.path).toBe("string");
	});
});
