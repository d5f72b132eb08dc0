import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Agent } from "@tau/agent";
import { getModel } from "@tau/ai/providers/all";
import { ExtensionRunner, loadExtensions, SessionManager } from "@tau/coding-agent";
import { Text } from "@tau/tui";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import {
	failedExtensionMessage,
	loadExtensionItems,
	NOT_INITIALIZED_MESSAGE,
} from "../../src/core/extensions/index.js";
import { bindFakeSession } from "./fake-session.js";
import { inlineExtension } from "./inline-extension.js";

const fixtures = resolve(import.meta.dirname, "../fixtures/extensions");
const cwd = mkdtempSync(join(tmpdir(), "tau-ext-loader-"));

describe("loading extension files", () => {
	it("loads a Pi-style extension whose Pi imports resolve to tau's own module instances", async () => {
		const result = await loadExtensions([join(fixtures, "pi-style.ts")], { cwd });
		expect(result.errors).toEqual([]);
		expect(result.extensions).toHaveLength(1);
		const seen = (globalThis as Record<string, any>).__piStyleModules;
		expect(seen.Agent).toBe(Agent);
		expect(seen.getModel).toBe(getModel);
		expect(seen.SessionManager).toBe(SessionManager);
		expect(seen.Text).toBe(Text);
		expect(seen.Type).toBe(Type);
		expect(seen.AiType).toBe(Type);
		expect(seen.SinclairType).toBe(Type);
		expect(seen.legacyAi.getModel).toBe(getModel);
		expect(seen.legacyCodingAgent.SessionManager).toBe(SessionManager);
		const tool = result.extensions[0]?.tools.get("greet");
		expect(tool?.definition.parameters).toMatchObject({ type: "object" });
	});

	it("reports a default export that is not a function and still loads the others", async () => {
		const result = await loadExtensions(
			[join(fixtures, "not-a-factory.ts"), join(fixtures, "syntax-error.js"), join(fixtures, "dir-ext")],
			{ cwd },
		);
		expect(result.errors).toHaveLength(2);
		expect(result.errors[0]?.error).toBe(
			`Extension does not export a valid factory function: ${join(fixtures, "not-a-factory.ts")}`,
		);
		expect(result.errors[1]?.error).toMatch(/^Failed to load extension: /);
		expect(result.errors[1]?.path).toBe(join(fixtures, "syntax-error.js"));
		expect(result.extensions.map((extension) => [...extension.commands.keys()])).toEqual([["from-dir"]]);
	});

	it("awaits async factories, so a provider registered after an await is queued before binding", async () => {
		const result = await loadExtensions([join(fixtures, "async-provider.ts")], { cwd });
		expect(result.runtime.pendingProviderRegistrations.map((pending) => pending.name)).toEqual(["late-provider"]);
		const registered: string[] = [];
		const runner = new ExtensionRunner({ extensions: result.extensions, runtime: result.runtime, cwd });
		bindFakeSession(runner, { providers: { registerProvider: (name) => registered.push(name) } });
		expect(registered).toEqual(["late-provider"]);
		expect(result.runtime.pendingProviderRegistrations).toEqual([]);
	});

	it("re-imports changed source only for a new generation", async () => {
		const dir = mkdtempSync(join(tmpdir(), "tau-ext-gen-"));
		const file = join(dir, "versioned.js");
		const write = (version: string) =>
			writeFileSync(
				file,
				`export default function (pi) { pi.registerCommand("${version}", { handler: async () => {} }); }`,
			);
		write("v1");
		const first = await loadExtensions([file], { cwd: dir, generation: 1 });
		write("v2");
		const sameGeneration = await loadExtensions([file], { cwd: dir, generation: 1 });
		const nextGeneration = await loadExtensions([file], { cwd: dir, generation: 2 });
		expect([...(first.extensions[0]?.commands.keys() ?? [])]).toEqual(["v1"]);
		expect([...(sameGeneration.extensions[0]?.commands.keys() ?? [])]).toEqual(["v1"]);
		expect([...(nextGeneration.extensions[0]?.commands.keys() ?? [])]).toEqual(["v2"]);
	});
});

/** API methods that need a bound session, so they throw while the factory still runs. */
const SESSION_ACTIONS = [
	"sendMessage",
	"appendEntry",
	"getActiveTools",
	"getAllTools",
	"getCommands",
	"getThinkingLevel",
];

describe("two-phase initialization", () => {
	it("action methods throw during loading, setModel rejects, exec works", async () => {
		const observed: Record<string, unknown> = {};
		const result = await loadExtensionItems({
			cwd,
			items: [
				inlineExtension("<inline:probe>", async (pi: any) => {
					for (const name of SESSION_ACTIONS) {
						try {
							pi[name]({ customType: "x", content: "", display: false });
							observed[name] = "no throw";
						} catch (error) {
							observed[name] = (error as Error).message;
						}
					}
					observed.setModel = await pi.setModel({}).catch((error: Error) => `rejected: ${error.message}`);
					observed.exec = (await pi.exec(process.execPath, ["-e", "process.stdout.write('ok')"])).stdout;
				}),
			],
		});
		expect(result.errors).toEqual([]);
		for (const name of SESSION_ACTIONS) {
			expect(observed[name]).toBe(NOT_INITIALIZED_MESSAGE);
		}
		expect(observed.setModel).toBe("rejected: Extension runtime not initialized");
		expect(observed.exec).toBe("ok");
	});

	it("discards everything a failing factory registered and deactivates its API", async () => {
		let captured: any;
		const delivered: unknown[] = [];
		const result = await loadExtensionItems({
			cwd,
			items: [
				inlineExtension("<inline:listener>", (pi: any) => {
					pi.events.on("ping", (data: unknown) => delivered.push(["listener", data]));
				}),
				inlineExtension("<inline:broken>", (pi: any) => {
					captured = pi;
					pi.registerTool({
						name: "t",
						label: "t",
						description: "t",
						parameters: Type.Object({}),
						execute: async () => ({ content: [], details: undefined }),
					});
					pi.on("input", () => ({ action: "handled" }));
					pi.registerFlag("broken-flag", { type: "boolean", default: true });
					pi.registerProvider("broken-provider", { baseUrl: "http://127.0.0.1:1" });
					pi.registerMcpServer("broken-mcp", { command: "true" });
					pi.events.on("ping", (data: unknown) => delivered.push(["broken", data]));
					throw new Error("factory exploded");
				}),
			],
		});
		expect(result.errors).toEqual([{ path: "<inline:broken>", error: "Failed to load extension: factory exploded" }]);
		expect(result.extensions.map((extension) => extension.path)).toEqual(["<inline:listener>"]);
		expect(result.runtime.pendingProviderRegistrations).toEqual([]);
		expect(result.runtime.mcpServers).toEqual([]);
		expect(result.runtime.flagValues.has("broken-flag")).toBe(false);
		result.runtime.eventBus.emit("ping", 1);
		expect(delivered).toEqual([["listener", 1]]);
		expect(() => captured.registerCommand("later", { handler: async () => {} })).toThrow(
			failedExtensionMessage("<inline:broken>"),
		);
	});

	it("validates registrations", async () => {
		const messages: string[] = [];
		const attempt = (register: (pi: any) => void) => ({
			path: `<inline:${messages.length}>`,
			sourceInfo: { path: "<inline>", source: "inline", scope: "temporary" as const, origin: "top-level" as const },
			hidden: false,
			replaceable: false,
			factory: register as never,
		});
		const result = await loadExtensionItems({
			cwd,
			items: [
				attempt((pi) => pi.registerTool({ name: "arr", parameters: [], execute: async () => ({}) })),
				attempt((pi) => pi.registerTool({ name: "nul", parameters: null, execute: async () => ({}) })),
				attempt((pi) => pi.registerCommand("", { handler: async () => {} })),
				attempt((pi) => pi.registerFlag("verbose", { type: "boolean", default: "yes" })),
			],
		});
		messages.push(...result.errors.map((error) => error.error));
		expect(messages[0]).toContain(
			'Tool "arr" registered by extension "<inline:0>" must define an object parameter schema.',
		);
		expect(messages[1]).toContain(
			'Tool "nul" registered by extension "<inline:0>" must define an object parameter schema.',
		);
		expect(messages[2]).toContain("Command name must be a non-empty string");
		expect(messages[3]).toContain('Invalid default for flag "verbose": expected boolean, got string');
	});
});
