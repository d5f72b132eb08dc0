import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import { type ExtensionAPI, SettingsManager, type ToolDefinition } from "@tau/coding-agent";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { createHarness, gate, heldResponse, textOfMessage } from "./harness.js";

describe("navigateTree, reload and model cycling", () => {
	it("navigating to a user message returns its text, moves the leaf to its parent and fires session_tree", async () => {
		const trees: unknown[] = [];
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("session_tree", (event) => {
					trees.push(event);
				});
			},
		});
		h.faux.setResponses([
			fauxAssistantMessage("one"),
			fauxAssistantMessage("two"),
			fauxAssistantMessage("alternative answer"),
			fauxAssistantMessage("BRANCH SUMMARY"),
		]);
		await h.session.prompt("first");
		await h.session.prompt("second");
		const second = h.session.getUserMessagesForForking()[1]!;
		const parent = h.sessionManager.getEntry(second.entryId)!.parentId;
		const result = await h.session.navigateTree(second.entryId);
		expect(result).toEqual({ cancelled: false, editorText: "second" });
		expect(h.sessionManager.getLeafId()).toBe(parent);
		expect(h.session.messages.filter((m) => m.role === "user").map((m) => textOfMessage(m))).toEqual(["first"]);
		expect(trees).toHaveLength(1);

		// Branch off, then go back to the first branch's tip, summarizing what is left behind, with a label.
		const tip = h.sessionManager.getEntries().findLast((entry) => entry.type === "message")!;
		await h.session.prompt("alternative");
		const back = await h.session.navigateTree(tip.id, { summarize: true, label: "resume-here" });
		expect(back.cancelled).toBe(false);
		expect(back.summaryEntry?.summary ?? "").toContain("BRANCH SUMMARY");
		expect(h.sessionManager.getLabel(back.summaryEntry!.id)).toBe("resume-here");
	});

	it("navigateTree throws while streaming and for unknown entries", async () => {
		const h = await createHarness();
		const hold = gate();
		h.faux.setResponses([heldResponse(hold, fauxAssistantMessage("x"))]);
		const running = h.session.prompt("hi");
		await hold.started;
		await expect(h.session.navigateTree("anything")).rejects.toThrow(
			"Wait for the current response to finish before navigating the session tree.",
		);
		await expect(h.session.reload()).rejects.toThrow("Wait for the current response to finish before reloading.");
		hold.release();
		await running;
		await expect(h.session.navigateTree("nope")).rejects.toThrow("Entry nope not found");
	});

	it("reload re-runs extensions and re-emits session_start only when extensions were bound", async () => {
		const log: string[] = [];
		let instances = 0;
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				const instance = ++instances;
				pi.on("session_start", (event) => {
					log.push(`start:${event.reason}:${instance}`);
				});
				pi.on("session_shutdown", (event) => {
					log.push(`shutdown:${event.reason}:${instance}`);
				});
			},
		});
		await h.session.reload();
		expect(log).toEqual([]);
		await h.session.bindExtensions({});
		const stale = h.session.extensionRunner.createContext();
		await h.session.reload();
		expect(log).toEqual(["start:startup:2", "shutdown:reload:2", "start:reload:3"]);
		expect(() => stale.cwd).toThrow();
	});

	it("reload re-reads settings: queue modes apply and tools newly added to defaultTools activate", async () => {
		const h = await createHarness({
			settingsManager: ({ cwd, agentDir }) => {
				writeFileSync(join(agentDir, "settings.json"), "{}");
				return SettingsManager.create(cwd, agentDir);
			},
		});
		h.session.setActiveToolsByName(["read", "bash", "write"]);
		writeFileSync(
			join(h.agentDir, "settings.json"),
			JSON.stringify({ defaultTools: ["+grep"], steeringMode: "all" }),
		);
		await h.session.reload();
		// edit stays off (the user turned it off); grep is new to defaultTools.
		expect(h.session.getActiveToolNames()).toEqual(["read", "bash", "write", "grep"]);
		expect(h.session.steeringMode).toBe("all");
		h.session.setActiveToolsByName(["read"]);
		await h.session.reload();
		expect(h.session.getActiveToolNames()).toEqual(["read"]);
	});

	it("cycleModel walks the available models; cycleThinkingLevel needs a reasoning model", async () => {
		const h = await createHarness({ models: [{ id: "a" }, { id: "b", reasoning: true }] });
		expect(h.session.model?.id).toBe("a");
		expect(h.session.cycleThinkingLevel()).toBeUndefined();
		const next = await h.session.cycleModel();
		expect(next).toMatchObject({ model: { id: "b" }, isScoped: false });
		expect(h.session.cycleThinkingLevel()).toBeDefined();
		expect((await h.session.cycleModel("backward"))?.model.id).toBe("a");
		const changes = h.sessionManager.getEntries().filter((entry) => entry.type === "model_change");
		expect(changes.map((entry) => (entry.type === "model_change" ? entry.modelId : ""))).toEqual(["a", "b", "a"]);
	});
});

describe("tool loadout restored from the transcript", () => {
	it("a resumed session with default tools gets the loadout its branch recorded; an explicit list wins", async () => {
		const first = await createHarness();
		first.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await first.session.prompt("first");
		const beforeChange = first.sessionManager.getLeafId()!;
		first.session.setActiveToolsByName(["read", "grep"]);
		await first.session.prompt("second");
		first.session.dispose();

		const resumed = await createHarness({ cwd: first.cwd, sessionManager: first.sessionManager });
		expect(resumed.session.getActiveToolNames()).toEqual(["read", "grep"]);

		const explicit = await createHarness({
			cwd: first.cwd,
			sessionManager: first.sessionManager,
			session: { tools: ["read", "ls"] },
		});
		expect(explicit.session.getActiveToolNames()).toEqual(["read", "ls"]);
		explicit.session.dispose();

		// Navigating back to before the change restores that branch's tools.
		await resumed.session.navigateTree(beforeChange);
		expect(resumed.session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write"]);
	});

	it("a deferred tool loaded on a branch comes back on resume, also when it registers after the session started", async () => {
		const deferred: ToolDefinition = {
			name: "deferred_x",
			label: "deferred_x",
			description: "a tool tool_search loads",
			parameters: Type.Object({}),
			exposure: "deferred",
			execute: async () => ({ content: [{ type: "text", text: "ok" }], details: undefined }),
		};
		const first = await createHarness({
			loader: { extensionFactories: [(pi: ExtensionAPI) => pi.registerTool(deferred)] },
		});
		first.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await first.session.prompt("first");
		const beforeLoad = first.sessionManager.getLeafId()!;
		first.session.setActiveToolsByName([...first.session.getActiveToolNames(), "deferred_x"]);
		await first.session.prompt("second");
		first.session.dispose();

		// Like an MCP tool: registered only once its server connected, after the session was built.
		const resume = async (session: { tools?: string[]; noTools?: "builtin" }) => {
			let api: ExtensionAPI | undefined;
			const h = await createHarness({
				cwd: first.cwd,
				sessionManager: first.sessionManager,
				session,
				extension: (pi: ExtensionAPI) => {
					api = pi;
				},
			});
			return { h, registerLate: () => api!.registerTool(deferred) };
		};

		const withDefaults = await resume({});
		expect(withDefaults.h.session.getActiveToolNames()).not.toContain("deferred_x");
		withDefaults.registerLate();
		expect(withDefaults.h.session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write", "deferred_x"]);
		withDefaults.h.session.dispose();

		// Without `defaultTools` the built-ins stay as started; the loaded tool still comes back.
		const noBuiltins = await resume({ noTools: "builtin" });
		noBuiltins.registerLate();
		expect(noBuiltins.h.session.getActiveToolNames()).toEqual(["deferred_x"]);
		noBuiltins.h.session.dispose();

		// Removed by the user with `-name`: it stays removed when it registers.
		const removed = await resume({ tools: ["-deferred_x"] });
		removed.registerLate();
		expect(removed.h.session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write"]);
		removed.h.session.dispose();

		// Deactivating a tool of the restored loadout gives up the restored tools still pending.
		const narrowed = await resume({});
		narrowed.h.session.setActiveToolsByName(["read"]);
		narrowed.registerLate();
		expect(narrowed.h.session.getActiveToolNames()).toEqual(["read"]);
		narrowed.h.session.dispose();

		// Only on that branch: a branch from before the load does not get it when it registers.
		const sibling = await resume({});
		await sibling.h.session.navigateTree(beforeLoad);
		sibling.registerLate();
		expect(sibling.h.session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write"]);
	});
});

describe("prompt preflight", () => {
	it("navigateTree refuses while a prompt is in its input hooks", async () => {
		const hold = gate();
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("input", async () => {
					hold.markStarted();
					await hold.wait;
					return undefined;
				});
			},
		});
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		const first = h.sessionManager.getEntries()[0]!.id;
		const prompting = h.session.prompt("hi");
		await hold.started;
		await expect(h.session.navigateTree(first)).rejects.toThrow(
			"Wait for the current response to finish before navigating the session tree.",
		);
		hold.release();
		await prompting;
	});
});

describe("selection recorded on the branch", () => {
	it("after navigating to a branch that implies another model, the next run records the current one", async () => {
		const h = await createHarness({ models: [{ id: "a" }, { id: "b" }] });
		h.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two"), fauxAssistantMessage("three")]);
		await h.session.prompt("first");
		const tip = h.sessionManager.getLeafId()!;
		await h.session.setModel(h.faux.getModel("b")!);
		await h.session.prompt("second");
		await h.session.navigateTree(tip);
		// The branch at `tip` implies model a; the session still uses b.
		await h.session.prompt("third");
		const changes = h.sessionManager
			.getBranch()
			.flatMap((entry) => (entry.type === "model_change" ? [entry.modelId] : []));
		expect(changes).toEqual(["a", "b"]);
		expect(h.session.model?.id).toBe("b");
	});
});
