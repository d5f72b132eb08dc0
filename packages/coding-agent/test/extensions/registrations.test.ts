import { existsSync, mkdtempSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ExtensionAPI, type ExtensionError, ExtensionRunner } from "@tau/coding-agent";
import { Type } from "typebox";
import { describe, expect, it, vi } from "vitest";
import {
	activatesOnRegistration,
	applyExtensionFlagValues,
	collectLoadoutChanges,
	EXEC_KILL_GRACE_MS,
	emitProjectTrustEvent,
	inheritRenderers,
	isCallable,
	loadExtensionItems,
	nextActiveTools,
	resolveShortcuts,
	resolveToolRenderers,
	transformMarkdown,
} from "../../src/core/extensions/index.js";
import type { LoadExtensions } from "../../src/core/resources/index.js";
import { bindFakeSession } from "./fake-session.js";
import { loadInlineExtensions } from "./inline-extension.js";

const cwd = mkdtempSync(join(tmpdir(), "tau-ext-registrations-"));

async function load(...factories: ((pi: ExtensionAPI) => unknown)[]) {
	const result = await loadInlineExtensions(cwd, factories);
	const runner = new ExtensionRunner({ extensions: result.extensions, runtime: result.runtime, cwd });
	const errors: ExtensionError[] = [];
	runner.onError((error) => errors.push(error));
	return { result, runner, errors };
}

const tool = (name: string, description = name) => ({
	name,
	label: name,
	description,
	parameters: Type.Object({}),
	execute: async () => ({ content: [], details: undefined }),
});

describe("resource-layer contract", () => {
	it("the item loader is the LoadExtensions function the resource loader injects", () => {
		const loader: LoadExtensions = loadExtensionItems;
		expect(typeof loader).toBe("function");
	});
});

describe("tools and commands", () => {
	it("first extension wins a tool name; the same extension re-registering replaces its definition", async () => {
		const { runner } = await load(
			(pi) => {
				pi.registerTool(tool("shared", "first"));
				pi.registerTool(tool("mine", "old"));
				pi.registerTool(tool("mine", "new"));
			},
			(pi) => pi.registerTool(tool("shared", "second")),
		);
		const tools = runner.getTools();
		expect(tools.map((entry) => [entry.definition.name, entry.definition.description, entry.extensionPath])).toEqual([
			["shared", "first", "ext1"],
			["mine", "new", "ext1"],
		]);
	});

	it("duplicate command names get :1, :2 suffixes in load order, skipping taken names", async () => {
		const handler = async () => {};
		const { runner } = await load(
			(pi) => {
				pi.registerCommand("review", { handler });
				pi.registerCommand("review:1", { handler });
			},
			(pi) => pi.registerCommand("review", { handler }),
			(pi) => pi.registerCommand("solo", { handler }),
		);
		expect(runner.getCommands().map((command) => [command.invocationName, command.extensionPath])).toEqual([
			["review:2", "ext1"],
			["review:1", "ext1"],
			["review:3", "ext2"],
			["solo", "ext3"],
		]);
		expect(runner.getCommand("review:3")?.extensionPath).toBe("ext2");
	});
});

describe("flags", () => {
	it("defaults are visible in the factory and committed; CLI values win; unknown and missing values are diagnosed", async () => {
		const seen: unknown[] = [];
		let api!: ExtensionAPI;
		const { runner } = await load((pi) => {
			api = pi;
			pi.registerFlag("plan", { type: "boolean", default: false });
			pi.registerFlag("mode", { type: "string", default: "fast" });
			pi.registerFlag("target", { type: "string" });
			seen.push(pi.getFlag("plan"), pi.getFlag("mode"), pi.getFlag("unregistered"));
		});
		expect(seen).toEqual([false, "fast", undefined]);
		const errors = applyExtensionFlagValues(
			runner.getFlags(),
			new Map<string, boolean | string>([
				["plan", true],
				["mode", "slow"],
				["target", true],
				["nope", true],
				["nada", "x"],
			]),
			(name, value) => runner.setFlagValue(name, value),
		);
		expect(errors).toEqual(['Extension flag "--target" requires a value', "Unknown option(s): --nope, --nada"]);
		expect([api.getFlag("plan"), api.getFlag("mode"), api.getFlag("target")]).toEqual([true, "slow", undefined]);
	});
});

describe("shortcuts", () => {
	it("last wins across extensions, reserved actions are skipped, other built-ins are overridden", async () => {
		const handler = () => {};
		const { result } = await load(
			(pi) => {
				pi.registerShortcut("ctrl+shift+p", { handler });
				pi.registerShortcut("ctrl+c", { handler });
				pi.registerShortcut("ctrl+g", { handler });
			},
			(pi) => pi.registerShortcut("Ctrl+Shift+P", { handler }),
		);
		const resolved = resolveShortcuts(
			result.extensions,
			new Map([
				["ctrl+c", "app.interrupt"],
				["ctrl+g", "app.session.tree"],
			]),
		);
		expect([...resolved.shortcuts.entries()].map(([key, shortcut]) => [key, shortcut.extensionPath])).toEqual([
			["ctrl+shift+p", "ext2"],
			["ctrl+g", "ext1"],
		]);
		expect(resolved.warnings).toHaveLength(3);
	});
});

describe("renderers", () => {
	it("message renderers: first extension wins; markdown transformers chain on their surfaces", async () => {
		const { result } = await load(
			(pi) => {
				pi.registerMarkdownTransformer((text) => `${text}[1]`);
				pi.registerMarkdownTransformer((text) => `${text}[1b]`);
			},
			(pi) =>
				pi.registerMarkdownTransformer(
					() => {
						throw new Error("bad");
					},
					{ messageTypes: ["assistant"] },
				),
			(pi) => pi.registerMarkdownTransformer((text) => `${text}[3]`, { messageTypes: ["custom", "assistant"] }),
		);
		const failures: string[] = [];
		const ctx = { messageType: "assistant" as const, isStreaming: false, availableWidth: 80 };
		expect(transformMarkdown(result.extensions, "md", ctx, (path) => failures.push(path))).toBe("md[1b][3]");
		expect(failures).toEqual(["ext2"]);
		expect(transformMarkdown(result.extensions, "md", { ...ctx, messageType: "user" })).toBe("md[1b]");
	});

	it("tool renderer resolvers chain with next(); overrides inherit built-in slots they omit", async () => {
		const builtinCall = () => ({ render: () => ["builtin call"], invalidate() {} });
		const builtinResult = () => ({ render: () => ["builtin result"], invalidate() {} });
		const ownCall = () => ({ render: () => ["own call"], invalidate() {} });
		const inherited = inheritRenderers(
			{ renderCall: ownCall },
			{ renderCall: builtinCall, renderResult: builtinResult },
		);
		expect(inherited.renderCall).toBe(ownCall);
		expect(inherited.renderResult).toBe(builtinResult);

		const { result } = await load(
			(pi) => pi.registerToolRenderer((name, next) => (name === "mcp__x" ? { renderCall: ownCall } : next())),
			(pi) => pi.registerToolRenderer((_name, next) => ({ ...next(), renderShell: "self" })),
		);
		expect(resolveToolRenderers(result.extensions, "mcp__x", () => undefined)).toEqual({ renderCall: ownCall });
		expect(resolveToolRenderers(result.extensions, "read", () => inherited)).toEqual({
			...inherited,
			renderShell: "self",
		});
	});
});

describe("exposure", () => {
	it("callable set and order-stable setActiveTools", () => {
		expect(isCallable("direct", true)).toBe(true);
		expect(isCallable("direct", false)).toBe(false);
		expect(isCallable("model-only", true)).toBe(false);
		expect(isCallable("codemode", false)).toBe(true);
		expect(isCallable("deferred", false)).toBe(true);
		expect(isCallable("hidden", true)).toBe(false);
		expect(activatesOnRegistration({})).toBe(true);
		expect(activatesOnRegistration({ exposure: "model-only" })).toBe(true);
		expect(activatesOnRegistration({ defaultActive: false })).toBe(false);
		expect(activatesOnRegistration({ exposure: "deferred" })).toBe(false);
		expect(activatesOnRegistration({ exposure: "codemode" })).toBe(false);
		const exposures: Record<string, "direct" | "hidden"> = {
			read: "direct",
			bash: "direct",
			edit: "direct",
			secret: "hidden",
		};
		const next = nextActiveTools(
			["read", "bash"],
			["edit", "bash", "secret", "unknown", "read"],
			(name) => exposures[name],
		);
		expect(next).toEqual(["read", "bash", "edit"]);
	});
});

describe("prepareLoadout", () => {
	it("merges descriptions and hidden declarations; a throwing hook is reported and ignored", () => {
		const reported: string[] = [];
		const loadout = {
			declared: [],
			callable: [],
			registered: [],
			getExposure: () => "direct" as const,
			getNamespace: () => undefined,
			getPromptGuidelines: () => [],
		};
		const changes = collectLoadoutChanges(
			[
				{
					...tool("codemode"),
					prepareLoadout: () => ({ descriptions: { read: "via scripts" }, hiddenDeclarations: ["read"] }),
				},
				{
					...tool("broken"),
					prepareLoadout: () => {
						throw new Error("x");
					},
				},
				tool("plain"),
			],
			loadout,
			(name) => reported.push(name),
		);
		expect([...changes.descriptions]).toEqual([["read", "via scripts"]]);
		expect([...changes.hiddenDeclarations]).toEqual(["read"]);
		expect(reported).toEqual(["broken"]);
	});
});

describe("providers and MCP servers", () => {
	it("registrations after binding take effect immediately; unregister before binding drops queued ones", async () => {
		let api!: ExtensionAPI;
		const { runner, result } = await load((pi) => {
			api = pi;
			pi.registerProvider("keep", { baseUrl: "http://127.0.0.1:1" });
			pi.registerProvider("drop", { baseUrl: "http://127.0.0.1:2" });
		});
		api.unregisterProvider("drop");
		expect(result.runtime.pendingProviderRegistrations.map((pending) => pending.name)).toEqual(["keep"]);
		const session = bindFakeSession(runner);
		api.registerProvider("later", { baseUrl: "http://127.0.0.1:3" });
		expect(session.calls.map(([name, provider]) => `${name}:${String(provider)}`)).toEqual([
			"registerProvider:keep",
			"registerProvider:later",
		]);
	});

	it("a failing queued registration is reported as register_provider, not thrown", async () => {
		const { runner, errors } = await load((pi) => pi.registerProvider("bad", {}));
		bindFakeSession(runner, {
			providers: {
				registerProvider: () => {
					throw new Error("invalid provider");
				},
			},
		});
		expect(errors).toMatchObject([{ extensionPath: "ext1", event: "register_provider", error: "invalid provider" }]);
	});

	it("another extension's MCP server name throws; an unconnected server is reported once", async () => {
		const outcomes: string[] = [];
		const { runner, errors, result } = await load(
			(pi) => pi.registerMcpServer("docs", { command: "docs-server" }),
			(pi) => {
				for (const name of ["docs", "my_docs"]) {
					try {
						pi.registerMcpServer(name, { command: "x" });
						outcomes.push(`ok ${name}`);
					} catch (error) {
						outcomes.push((error as Error).message);
					}
				}
			},
		);
		expect(outcomes[0]).toContain('MCP server "docs" is already registered by extension "ext1"');
		expect(outcomes[1]).toBe("ok my_docs");
		expect(result.runtime.mcpServers.map((server) => server.name)).toEqual(["docs", "my_docs"]);
		bindFakeSession(runner);
		runner.reportUnhandledMcpServers();
		runner.reportUnhandledMcpServers();
		expect(errors.filter((error) => error.event === "register_mcp_server")).toHaveLength(2);
	});

	it("MCP names differing only by - and _ collide", async () => {
		const { result } = await load(
			(pi) => pi.registerMcpServer("my-docs", { url: "http://127.0.0.1:1/mcp" }),
			(pi) => pi.registerMcpServer("my_docs", { url: "http://127.0.0.1:2/mcp" }),
		);
		expect(result.errors[0]?.error).toContain('collides with "my-docs"');
	});
});

describe("pi.events", () => {
	it("delivers between extensions and reports throwing handlers as events:<channel>", async () => {
		const received: unknown[] = [];
		let sender!: ExtensionAPI;
		const { errors } = await load(
			(pi) => {
				pi.events.on("jobs", (data) => void received.push(data));
				pi.events.on("jobs", async () => {
					throw new Error("async failure");
				});
			},
			(pi) => {
				sender = pi;
			},
		);
		const printed = vi.spyOn(console, "error").mockImplementation(() => {});
		sender.events.emit("jobs", { id: 1 });
		await new Promise((resolve) => setImmediate(resolve));
		expect(printed).not.toHaveBeenCalled();
		printed.mockRestore();
		expect(received).toEqual([{ id: 1 }]);
		expect(errors).toMatchObject([{ extensionPath: "ext1", event: "events:jobs", error: "async failure" }]);
	});
});

describe("project_trust", () => {
	it("first yes/no wins; undecided, throwing and empty answers fall through and are collected", async () => {
		const calls: string[] = [];
		const { result } = await load(
			(pi) =>
				pi.on("project_trust", () => {
					calls.push("undecided");
					return { trusted: "undecided" };
				}),
			(pi) =>
				pi.on("project_trust", () => {
					calls.push("throws");
					throw new Error("x");
				}),
			(pi) => {
				pi.on("project_trust", () => void calls.push("nothing"));
			},
			(pi) =>
				pi.on("project_trust", () => {
					calls.push("no");
					return { trusted: "no", remember: true };
				}),
			(pi) => {
				pi.on("project_trust", () => void calls.push("never"));
			},
		);
		const outcome = await emitProjectTrustEvent(result.extensions, cwd, {
			cwd,
			mode: "print",
			hasUI: false,
			ui: {} as never,
		});
		expect(calls).toEqual(["undecided", "throws", "nothing", "no"]);
		expect(outcome.decision).toEqual({ trusted: false, remember: true, extensionPath: "ext4" });
		expect(outcome.errors.map((error) => error.extensionPath)).toEqual(["ext2", "ext3"]);
	});
});

describe("events", () => {
	it("accepts unknown event names at registration (no-op dispatch)", async () => {
		const seen: unknown[] = [];
		const { runner } = await load((pi) => {
			pi.on("future_event", (event) => void seen.push(event));
		});
		bindFakeSession(runner);
		await runner.emit({ type: "future_event", value: 1 });
		expect(seen).toEqual([{ type: "future_event", value: 1 }]);
	});
});

describe("exec", () => {
	it("captures output and exit codes, reports spawn errors as code 1, and kills on timeout", async () => {
		let api!: ExtensionAPI;
		await load((pi) => {
			api = pi;
		});
		const node = process.execPath;
		const ok = await api.exec(node, [
			"-e",
			"process.stdout.write('é'); process.stderr.write('warn'); process.exit(3)",
		]);
		expect(ok).toEqual({ stdout: "é", stderr: "warn", code: 3, killed: false, truncated: false });
		const missing = await api.exec("definitely-not-a-command-tau", []);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain("ENOENT");
		const timedOut = await api.exec(node, ["-e", "setInterval(() => {}, 1000)"], { timeout: 50 });
		expect(timedOut).toMatchObject({ killed: true, code: 143 });
		const controller = new AbortController();
		const aborted = api.exec(node, ["-e", "setInterval(() => {}, 1000)"], { signal: controller.signal });
		controller.abort();
		expect(await aborted).toMatchObject({ killed: true, code: 143 });
	});

	it("a process that ignores SIGTERM gets SIGKILL after the grace period", async () => {
		let api!: ExtensionAPI;
		await load((pi) => {
			api = pi;
		});
		const dir = mkdtempSync(join(tmpdir(), "tau-ext-exec-"));
		const ready = join(dir, "ready");
		const watcher = watch(dir);
		const started = new Promise<void>((resolve) => watcher.on("change", () => existsSync(ready) && resolve()));
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		try {
			const controller = new AbortController();
			const script = `process.on("SIGTERM", () => {}); require("node:fs").writeFileSync(${JSON.stringify(ready)}, "1"); setInterval(() => {}, 1000);`;
			const running = api.exec(process.execPath, ["-e", script], { signal: controller.signal });
			await started;
			controller.abort();
			vi.advanceTimersByTime(EXEC_KILL_GRACE_MS);
			expect(await running).toMatchObject({ killed: true, code: 137 });
		} finally {
			vi.useRealTimers();
			watcher.close();
		}
	});

	it("maxBuffer overflow truncates, kills and never reports success", async () => {
		let api!: ExtensionAPI;
		await load((pi) => {
			api = pi;
		});
		const result = await api.exec(process.execPath, ["-e", "process.stdout.write('x'.repeat(100000))"], {
			maxBuffer: 10,
		});
		expect(result.stdout).toBe("x".repeat(10));
		expect(result.truncated).toBe(true);
		expect(result.killed).toBe(true);
		expect(result.code).not.toBe(0);
		await expect(api.exec(process.execPath, [], { maxBuffer: -1 })).rejects.toThrow(RangeError);
	});
});
