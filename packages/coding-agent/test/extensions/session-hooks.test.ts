import {
	type AssistantMessage,
	type FauxResponseStep,
	fauxAssistantMessage,
	getCurrentSystemPrompt,
	getCurrentTools,
} from "@tau/ai";
import type { AgentSessionEvent, ExtensionAPI } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { createHarness, gate, heldResponse, textOfMessage } from "../agent-session/harness.js";

interface SeenRequest {
	systemMessages: number;
	prompt: string;
	tools: string[];
	userTexts: string[];
}

/** A faux step that records what the model received, then answers. */
function observing(seen: SeenRequest[], reply: AssistantMessage): FauxResponseStep {
	return (context) => {
		const messages = context.messages as { role: string }[];
		seen.push({
			systemMessages: messages.filter((message) => message.role === "system").length,
			prompt: getCurrentSystemPrompt(context.messages),
			tools: getCurrentTools(context.messages).map((tool) => tool.name),
			userTexts: messages.filter((message) => message.role === "user").map((message) => textOfMessage(message)),
		});
		return reply;
	};
}

describe("forced system prompt", () => {
	it("is sent as the single leading system message, never persisted, and gone after the run", async () => {
		let force = true;
		const seen: SeenRequest[] = [];
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("before_agent_start", () => (force ? { systemPrompt: "FORCED PROMPT" } : undefined));
			},
		});
		h.faux.setResponses([observing(seen, fauxAssistantMessage("one")), observing(seen, fauxAssistantMessage("two"))]);
		await h.session.prompt("first");
		force = false;
		await h.session.prompt("second");
		expect(seen[0]).toMatchObject({ systemMessages: 1, prompt: "FORCED PROMPT" });
		expect(seen[1]?.prompt).not.toContain("FORCED PROMPT");
		expect(seen[1]?.prompt.length).toBeGreaterThan(0);
		expect(JSON.stringify(h.sessionManager.getEntries())).not.toContain("FORCED PROMPT");
	});
});

describe("before_agent_start tool selection", () => {
	it("an edited selectedTools list wins; otherwise setActiveTools inside the handler is respected", async () => {
		for (const via of ["selectedTools", "setActiveTools"] as const) {
			const seen: SeenRequest[] = [];
			const h = await createHarness({
				extension: (pi: ExtensionAPI) => {
					pi.on("before_agent_start", (event) => {
						if (via === "selectedTools") event.systemPromptOptions.selectedTools = ["read"];
						else pi.setActiveTools(["read", "bash"]);
						return undefined;
					});
				},
			});
			await h.session.bindExtensions({});
			expect(h.session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write"]);
			h.faux.setResponses([observing(seen, fauxAssistantMessage("ok"))]);
			await h.session.prompt("go");
			expect(seen[0]?.tools).toEqual(via === "selectedTools" ? ["read"] : ["read", "bash"]);
		}
	});
});

describe("boundary drafts", () => {
	it("commits drafts in order with entry_appended; a custom_message draft reaches the model as user text without input hooks", async () => {
		const inputs: string[] = [];
		const seen: SeenRequest[] = [];
		let proposed = false;
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("input", (event) => {
					inputs.push(event.text);
					return undefined;
				});
				pi.on("turn_end", () => {
					if (proposed) return undefined;
					proposed = true;
					return {
						entries: [
							{ type: "custom", customType: "marker", data: { n: 1 } },
							{ type: "custom_message", customType: "nudge", content: "please continue", display: false },
						],
						continue: true,
					};
				});
			},
		});
		await h.session.bindExtensions({});
		h.faux.setResponses([fauxAssistantMessage("first"), observing(seen, fauxAssistantMessage("second"))]);
		await h.session.prompt("hi");
		const appended = h.events.filter(
			(event): event is Extract<AgentSessionEvent, { type: "entry_appended" }> => event.type === "entry_appended",
		);
		const kinds = appended.map((event) => event.entry.type);
		const markerAt = kinds.indexOf("custom");
		expect(markerAt).toBeGreaterThanOrEqual(0);
		expect(kinds[markerAt + 1]).toBe("custom_message");
		expect(seen[0]?.userTexts).toEqual(["hi", "please continue"]);
		expect(inputs).toEqual(["hi"]);
	});
});

describe("agent_before_settle", () => {
	it("continue: true starts another low-level run with the committed draft", async () => {
		let asked = false;
		const seen: SeenRequest[] = [];
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("agent_before_settle", () => {
					if (asked) return undefined;
					asked = true;
					return {
						entries: [{ type: "custom_message", customType: "check", content: "double-check", display: false }],
						continue: true,
					};
				});
			},
		});
		await h.session.bindExtensions({});
		h.faux.setResponses([fauxAssistantMessage("first"), observing(seen, fauxAssistantMessage("second"))]);
		await h.session.prompt("hi");
		expect(h.faux.state.callCount).toBe(2);
		expect(seen[0]?.userTexts).toEqual(["hi", "double-check"]);
		expect(h.session.getLastAssistantText()).toBe("second");
	});

	it("an abort while its handlers run commits their entries but does not continue", async () => {
		const inHandler = gate();
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("agent_before_settle", async () => {
					inHandler.markStarted();
					await inHandler.wait;
					return { entries: [{ type: "custom", customType: "late-note" }], continue: true };
				});
			},
		});
		await h.session.bindExtensions({});
		h.faux.setResponses([fauxAssistantMessage("first"), fauxAssistantMessage("never")]);
		const running = h.session.prompt("hi");
		await inHandler.started;
		const aborting = h.session.abort();
		inHandler.release();
		await Promise.all([running, aborting]);
		expect(h.faux.state.callCount).toBe(1);
		expect(
			h.sessionManager.getEntries().some((entry) => entry.type === "custom" && entry.customType === "late-note"),
		).toBe(true);
	});
});

describe("state from the branch", () => {
	it("rebuilds from getBranch() on session_start and session_tree, ignoring abandoned branches", async () => {
		const snapshots: string[][] = [];
		const rebuild = (entries: readonly { type: string; customType?: string; data?: unknown }[]) =>
			entries.flatMap((entry) =>
				entry.type === "custom" && entry.customType === "counter" ? [String((entry.data as { n: number }).n)] : [],
			);
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("session_start", (_event, ctx) => {
					snapshots.push(rebuild(ctx.sessionManager.getBranch()));
				});
				pi.on("session_tree", (_event, ctx) => {
					snapshots.push(rebuild(ctx.sessionManager.getBranch()));
				});
			},
		});
		h.faux.setResponses([fauxAssistantMessage("a"), fauxAssistantMessage("b")]);
		await h.session.prompt("first");
		h.session.appendCustomEntry("counter", { n: 1 });
		const forkPoint = h.sessionManager.getLeafId()!;
		await h.session.prompt("second");
		h.session.appendCustomEntry("counter", { n: 2 });
		await h.session.bindExtensions({});
		expect(snapshots).toEqual([["1", "2"]]);
		await h.session.navigateTree(forkPoint);
		expect(snapshots.at(-1)).toEqual(["1"]);
	});
});

describe("/reload", () => {
	it("emits session_shutdown, session_start and resources_discover with reason reload, keeping flags and active tools", async () => {
		const log: string[] = [];
		let instance = 0;
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				const me = ++instance;
				pi.registerFlag("mode", { type: "string", default: "plain" });
				pi.on("session_start", (event) => {
					log.push(`start:${event.reason}:${me}:${String(pi.getFlag("mode"))}`);
				});
				pi.on("resources_discover", (event) => {
					log.push(`discover:${event.reason}:${me}`);
					return undefined;
				});
				pi.on("session_shutdown", (event) => {
					log.push(`shutdown:${event.reason}:${me}`);
				});
			},
		});
		await h.session.bindExtensions({});
		h.session.extensionRunner.setFlagValue("mode", "fancy");
		h.session.setActiveToolsByName(["read"]);
		log.length = 0;
		await h.session.reload();
		expect(log).toEqual(["shutdown:reload:1", "start:reload:2:fancy", "discover:reload:2"]);
		expect(h.session.getActiveToolNames()).toEqual(["read"]);
	});

	it("is rejected while a response streams", async () => {
		const h = await createHarness({ loader: { extensionFactories: [() => {}] } });
		await h.session.bindExtensions({});
		const hold = gate();
		h.faux.setResponses([heldResponse(hold, fauxAssistantMessage("slow"))]);
		const running = h.session.prompt("hi");
		await hold.started;
		await expect(h.session.reload()).rejects.toThrow();
		hold.release();
		await running;
	});
});

describe("context and input in a session", () => {
	it("a context handler that drops every message cannot drop the system prompt or tools", async () => {
		const seen: SeenRequest[] = [];
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("context", (event) => {
					expect(event.messages.some((message) => (message as { role: string }).role === "system")).toBe(false);
					return { messages: [] };
				});
			},
		});
		h.faux.setResponses([observing(seen, fauxAssistantMessage("ok"))]);
		await h.session.prompt("hello");
		expect(seen[0]?.systemMessages).toBe(1);
		expect(seen[0]?.prompt).toBe(h.session.systemPrompt);
		expect(seen[0]?.tools).toEqual(["read", "bash", "edit", "write"]);
		expect(seen[0]?.userTexts).toEqual([]);
	});

	it("an input handler answering handled consumes the text: no run, nothing persisted", async () => {
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.on("input", (event) => (event.text === "secret" ? { action: "handled" } : undefined));
			},
		});
		await h.session.prompt("secret");
		expect(h.faux.state.callCount).toBe(0);
		expect(h.sessionManager.getEntries().some((entry) => entry.type === "message")).toBe(false);
	});
});
