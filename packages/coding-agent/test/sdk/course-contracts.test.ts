import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall, type ToolResultMessage } from "@tau/ai";
import {
	createCodemodeExtension,
	createMcpExtension,
	createToolSearchExtension,
	type ExtensionAPI,
	SessionManager,
} from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { createHarness, textOfMessage } from "../agent-session/harness.js";
import { tempDir } from "../support/isolated-session.js";

/** The SDK contracts of the Pi course (seed 000), as tau tests. */
describe("SDK course contracts", () => {
	it("canonical history reaches the request; a MEMORY_ONLY assignment does not", async () => {
		const cwd = tempDir();
		const sessionManager = SessionManager.inMemory(cwd);
		sessionManager.appendMessage({ role: "user", content: "CANONICAL", timestamp: Date.now() });
		const h = await createHarness({ cwd, sessionManager });
		h.session.agent.state.messages = [{ role: "user", content: "MEMORY_ONLY", timestamp: Date.now() }];
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("next");
		const request = JSON.stringify(h.requests[0]);
		expect(request).toContain("CANONICAL");
		expect(request).not.toContain("MEMORY_ONLY");
		expect(JSON.stringify(h.session.messages)).not.toContain("MEMORY_ONLY");
	});

	it("agent_end is not completion: after a retry there are two agent_end events and one agent_settled last", async () => {
		const h = await createHarness();
		h.faux.setResponses([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "503 Service Unavailable" }),
			fauxAssistantMessage("done"),
		]);
		let resolvedAfterSettled = false;
		const promise = h.session.prompt("hi").then(() => {
			resolvedAfterSettled = h.events.at(-1)?.type === "agent_settled";
		});
		await promise;
		const lifecycle = h.events
			.map((event) => event.type)
			.filter((type) => type === "agent_end" || type === "agent_settled");
		expect(lifecycle).toEqual(["agent_end", "agent_end", "agent_settled"]);
		expect(resolvedAfterSettled).toBe(true);
	});

	it("a research package loads its extension, skill and template, and blocks edit", async () => {
		const pkg = tempDir("tau-research-pkg-");
		mkdirSync(join(pkg, "extensions"));
		mkdirSync(join(pkg, "skills", "source-research"), { recursive: true });
		mkdirSync(join(pkg, "prompts"));
		writeFileSync(
			join(pkg, "package.json"),
			JSON.stringify({
				name: "my-research-kit",
				version: "1.0.0",
				type: "module",
				pi: { extensions: ["./extensions/research.ts"], skills: ["./skills"], prompts: ["./prompts"] },
			}),
		);
		writeFileSync(
			join(pkg, "extensions", "research.ts"),
			[
				"export default function research(pi: any) {",
				"  pi.registerTool({",
				'    name: "research_checklist", label: "Checklist", description: "Lists the research steps",',
				'    parameters: { type: "object", properties: {} },',
				'    execute: async () => ({ content: [{ type: "text", text: "1. pin the version" }], details: undefined }),',
				"  });",
				'  pi.registerCommand("research-status", {',
				'    description: "Shows the research status",',
				'    handler: async () => { pi.appendEntry("research-status", { commands: pi.getCommands().map((c: any) => c.source + ":" + c.name) }); },',
				"  });",
				'  pi.on("tool_call", async (event: { toolName: string }) =>',
				'    ["bash", "powershell", "edit", "write"].includes(event.toolName)',
				'      ? { block: true, reason: "research workflow forbids this tool" }',
				"      : undefined);",
				"}",
			].join("\n"),
		);
		writeFileSync(
			join(pkg, "skills", "source-research", "SKILL.md"),
			"---\nname: source-research\ndescription: Research source design with file evidence.\n---\nPin the version first.\n",
		);
		writeFileSync(
			join(pkg, "prompts", "research.md"),
			["---", "description: Research a path", "---", `Research $\{1:-src} carefully.`, ""].join("\n"),
		);

		const cwd = tempDir();
		writeFileSync(join(cwd, "main.ts"), "export const original = true;\n");
		const h = await createHarness({
			cwd,
			settings: { packages: [pkg] },
			loader: { noExtensions: false, noSkills: false, noPromptTemplates: false },
			session: { tools: ["read", "grep", "find", "ls", "research_checklist", "edit"] },
		});
		expect(h.session.getActiveToolNames()).toContain("research_checklist");

		const decisions: string[] = [];
		await h.session.prompt("/research-status", { preflightResult: (d) => decisions.push(d) });
		expect(decisions).toEqual(["handled"]);
		const status = h.sessionManager
			.getEntries()
			.find((e) => e.type === "custom" && e.customType === "research-status");
		// Extension commands first, then prompt templates, then skills.
		expect(status?.type === "custom" && status.data).toEqual({
			commands: ["extension:research-status", "prompt:research", "skill:skill:source-research"],
		});

		h.faux.setResponses([
			fauxAssistantMessage("template ok"),
			fauxAssistantMessage("skill ok"),
			fauxAssistantMessage(fauxToolCall("research_checklist", {}), { stopReason: "toolUse" }),
			fauxAssistantMessage(
				fauxToolCall("edit", { path: "main.ts", edits: [{ oldText: "true", newText: "false" }] }),
				{
					stopReason: "toolUse",
				},
			),
			fauxAssistantMessage("blocked, as expected"),
		]);
		await h.session.prompt("/research src/main.ts");
		await h.session.prompt("/skill:source-research explain the startup order");
		const users = h.session.messages.filter((m) => m.role === "user").map((m) => textOfMessage(m));
		expect(users[0]).toBe("Research src/main.ts carefully.");
		expect(users[1]).toContain('<skill name="source-research"');
		expect(users[1]).toContain("Pin the version first.");
		expect(users[1]).toContain("explain the startup order");

		await h.session.prompt("change main.ts");
		const [checklist, blocked] = h.session.messages.filter((m) => m.role === "toolResult") as ToolResultMessage[];
		// The package's own tool runs; the package's policy blocks edit before it executes.
		expect(checklist).toMatchObject({ toolName: "research_checklist", isError: false });
		expect(textOfMessage(checklist!)).toBe("1. pin the version");
		expect(blocked).toMatchObject({ toolName: "edit", isError: true });
		expect(textOfMessage(blocked!)).toBe("research workflow forbids this tool");
		expect(h.session.getLastAssistantText()).toBe("blocked, as expected");
		expect(readFileSync(join(cwd, "main.ts"), "utf8")).toBe("export const original = true;\n");
	});

	it("resource isolation: project AGENTS/SYSTEM/APPEND and project extensions never reach the model", async () => {
		const cwd = tempDir();
		writeFileSync(join(cwd, "AGENTS.md"), "SENTINEL_AGENTS");
		mkdirSync(join(cwd, ".tau", "extensions"), { recursive: true });
		writeFileSync(join(cwd, ".tau", "SYSTEM.md"), "SENTINEL_SYSTEM");
		writeFileSync(join(cwd, ".tau", "APPEND_SYSTEM.md"), "SENTINEL_APPEND");
		writeFileSync(join(cwd, ".tau", "extensions", "bad.ts"), 'throw new Error("SENTINEL_EXTENSION loaded");\n');
		const h = await createHarness({
			cwd,
			loader: {
				systemPromptOverride: () => undefined,
				appendSystemPromptOverride: () => ["PRODUCT_RULES: cite file paths"],
				agentsFilesOverride: () => ({ agentsFiles: [] }),
			},
		});
		expect(h.session.extensionRunner.extensions).toEqual([]);
		expect(h.session.resourceLoader.getExtensions().errors).toEqual([]);
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("hi");
		const request = JSON.stringify(h.requests[0]);
		expect(request).not.toMatch(/SENTINEL/);
		expect(request).toContain("PRODUCT_RULES: cite file paths");

		// Negative control: with context files on, the same project's AGENTS.md does reach the model.
		const leaky = await createHarness({ cwd, loader: { noContextFiles: false } });
		leaky.faux.setResponses([fauxAssistantMessage("ok")]);
		await leaky.session.prompt("hi");
		expect(JSON.stringify(leaky.requests[0])).toContain("SENTINEL_AGENTS");
	});

	it("the SDK loads no built-ins by default; the recipe adds them and bindExtensions starts them", async () => {
		const plain = await createHarness({ loader: { noExtensions: false } });
		const plainTools = plain.session.getAllTools().map((tool) => tool.name);
		expect(plainTools).not.toContain("codemode");
		expect(plainTools).not.toContain("tool_search");
		expect(plain.session.extensionRunner.extensions).toEqual([]);

		const starts: string[] = [];
		const h = await createHarness({
			settings: { defaultTools: ["+codemode", "+tool_search"] },
			loader: {
				extensionFactories: [
					createCodemodeExtension({ mode: "on" }),
					createToolSearchExtension(),
					createMcpExtension({ agentDir: tempDir("tau-mcp-agent-") }),
					(pi: ExtensionAPI) => {
						pi.on("session_start", (event) => {
							starts.push(event.reason);
						});
					},
				],
			},
		});
		expect(h.session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write", "codemode", "tool_search"]);
		// Assembly runs nothing: session_start (which connects MCP servers) waits for the host's bind.
		expect(starts).toEqual([]);
		await h.session.bindExtensions({});
		expect(starts).toEqual(["startup"]);
		h.session.dispose();
	});

	it("a resumed session restores its selection (a virtual model), not the physical model that answered", async () => {
		const router = (pi: ExtensionAPI) => {
			pi.registerVirtualModel({
				provider: "router",
				id: "auto",
				name: "Auto",
				route: (_request, ctx) => ({ model: ctx.modelRegistry.find("faux", "small")!, thinkingLevel: "off" }),
			});
		};
		const models = [{ id: "small" }, { id: "large" }];
		const first = await createHarness({
			models,
			settings: { defaultProvider: "router", defaultModel: "auto" },
			session: { model: undefined },
			loader: { extensionFactories: [router] },
		});
		first.faux.setResponses([fauxAssistantMessage("routed answer")]);
		await first.session.prompt("hi");
		expect(first.session.messages.at(-1)).toMatchObject({ role: "assistant", model: "small" });
		first.session.dispose();

		const resumed = await createHarness({
			cwd: first.cwd,
			models,
			sessionManager: first.sessionManager,
			settings: { defaultProvider: "faux", defaultModel: "large" },
			session: { model: undefined },
			loader: { extensionFactories: [router] },
		});
		expect(`${resumed.session.model?.provider}/${resumed.session.model?.id}`).toBe("router/auto");
	});

	it("a handled prompt starts no run: no agent_start and no agent_settled to wait for", async () => {
		const h = await createHarness({
			extension: (pi: ExtensionAPI) => {
				pi.registerCommand("ping", { handler: async () => {} });
			},
		});
		const decisions: string[] = [];
		await h.session.prompt("/ping", { preflightResult: (decision) => decisions.push(decision) });
		expect(decisions).toEqual(["handled"]);
		expect(h.events.filter((event) => event.type === "agent_start" || event.type === "agent_settled")).toEqual([]);
		expect(h.faux.state.callCount).toBe(0);
	});
});
