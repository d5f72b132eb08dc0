import type { ExtensionAPI, ExtensionCommandContext, ExtensionContext } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { gate, RpcHarness } from "./harness.js";

let harness: RpcHarness | undefined;
afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

/** An extension whose `/ui <name>` command runs one UI interaction and records what it got back. */
function uiExtension(results: unknown[]) {
	const actions: Record<string, (ctx: ExtensionCommandContext) => Promise<unknown> | unknown> = {
		select: (ctx) => ctx.ui.select("Pick one", ["a", "b"], { timeout: 5 }),
		selectAnswered: (ctx) => ctx.ui.select("Pick one", ["a", "b"]),
		confirm: (ctx) => ctx.ui.confirm("Sure?", "Really do it", { timeout: 60_000 }),
		input: (ctx) => ctx.ui.input("Name", "type here"),
		editor: (ctx) => ctx.ui.editor("Edit", "prefilled"),
		aborted: (ctx) => {
			const controller = new AbortController();
			controller.abort();
			return ctx.ui.confirm("Never shown", "x", { signal: controller.signal });
		},
		fire: (ctx) => {
			ctx.ui.notify("hello", "warning");
			ctx.ui.notify("plain");
			ctx.ui.setStatus("k", "busy");
			ctx.ui.setStatus("k", undefined);
			ctx.ui.setWidget("w", ["line 1"], { placement: "belowEditor" });
			ctx.ui.setWidget("w", () => ({ render: () => [], invalidate: () => {}, dispose: () => {} }) as never);
			ctx.ui.setWidget("w", undefined);
			ctx.ui.setTitle("Title");
			ctx.ui.pasteToEditor("pasted");
			return "fired";
		},
		theme: (ctx) => ({
			name: ctx.ui.theme.name,
			accent: ctx.ui.theme.fg("accent", "a"),
			selected: ctx.ui.theme.bg("selectedBg", "s"),
			bold: ctx.ui.theme.bold("b"),
			strike: ctx.ui.theme.strikethrough("x"),
		}),
		degraded: async (ctx) => ({
			custom: await ctx.ui.custom(() => ({ render: () => ["never shown"], invalidate: () => {} }) as never),
			theme: ctx.ui.setTheme("dark"),
			mode: ctx.mode,
			hasUI: ctx.hasUI,
			editorText: ctx.ui.getEditorText(),
			themes: ctx.ui.getAllThemes(),
			expanded: ctx.ui.getToolsExpanded(),
		}),
	};
	return (pi: ExtensionAPI) =>
		pi.registerCommand("ui", {
			handler: async (args, ctx) => {
				results.push(await actions[args]!(ctx));
			},
		});
}

async function start(results: unknown[]): Promise<RpcHarness> {
	return RpcHarness.start({ loader: { extensionFactories: [uiExtension(results)] } });
}

describe("RPC extension UI sub-protocol", () => {
	it("select with a timeout resolves undefined when unanswered; a late response is ignored", async () => {
		const results: unknown[] = [];
		harness = await start(results);
		const response = await harness.send({ type: "prompt", message: "/ui select" });
		expect(response.data).toEqual({ disposition: "handled" });
		expect(results).toEqual([undefined]);
		const request = harness.records.find((r) => r.type === "extension_ui_request");
		expect(request).toMatchObject({ method: "select", title: "Pick one", options: ["a", "b"], timeout: 5 });
		const responsesBefore = harness.records.filter((r) => r.type === "response").length;
		harness.writeLine(JSON.stringify({ type: "extension_ui_response", id: request?.id, value: "a" }));
		await harness.data({ type: "get_state" });
		expect(harness.records.filter((r) => r.type === "response").length).toBe(responsesBefore + 1);
		expect(results).toEqual([undefined]);
	});

	it("answers select/confirm/input/editor dialogs with the mapped values and writes no response for them", async () => {
		const results: unknown[] = [];
		harness = await start(results);
		const answer = async (name: string, reply: Record<string, unknown>) => {
			const before = harness!.records.length;
			const request = harness!.waitFor((r) => r.type === "extension_ui_request", before);
			const done = harness!.send({ type: "prompt", message: `/ui ${name}` });
			const { id } = await request;
			harness!.writeLine(JSON.stringify({ type: "extension_ui_response", id, ...reply }));
			await done;
			return results.at(-1);
		};
		expect(await answer("selectAnswered", { value: "b" })).toBe("b");
		expect(await answer("confirm", { confirmed: true })).toBe(true);
		expect(await answer("confirm", { cancelled: true })).toBe(false);
		expect(await answer("confirm", {})).toBe(false);
		expect(await answer("input", { value: "x" })).toBe("x");
		expect(await answer("input", { cancelled: true })).toBeUndefined();
		expect(await answer("editor", { value: "edited" })).toBe("edited");
		const requests = harness.records.filter((r) => r.type === "extension_ui_request");
		expect(requests.find((r) => r.method === "confirm")).toEqual({
			type: "extension_ui_request",
			id: expect.any(String),
			method: "confirm",
			title: "Sure?",
			message: "Really do it",
			timeout: 60_000,
		});
		expect(requests.find((r) => r.method === "input")).toEqual({
			type: "extension_ui_request",
			id: expect.any(String),
			method: "input",
			title: "Name",
			placeholder: "type here",
		});
		expect(requests.find((r) => r.method === "editor")).toEqual({
			type: "extension_ui_request",
			id: expect.any(String),
			method: "editor",
			title: "Edit",
			prefill: "prefilled",
		});
		expect(harness.records.filter((r) => r.type === "response" && r.command !== "prompt")).toEqual([]);
	});

	it("an already-aborted dialog resolves with its default and writes no request", async () => {
		const results: unknown[] = [];
		harness = await start(results);
		await harness.send({ type: "prompt", message: "/ui aborted" });
		expect(results).toEqual([false]);
		expect(harness.records.some((r) => r.type === "extension_ui_request")).toBe(false);
	});

	it("fire-and-forget methods emit requests with fresh ids and never wait", async () => {
		const results: unknown[] = [];
		harness = await start(results);
		await harness.send({ type: "prompt", message: "/ui fire" });
		expect(results).toEqual(["fired"]);
		const requests = harness.records.filter((r) => r.type === "extension_ui_request");
		const bodies = requests.map(({ id: _id, type: _type, ...rest }) => rest);
		expect(bodies).toEqual([
			{ method: "notify", message: "hello", notifyType: "warning" },
			{ method: "notify", message: "plain" },
			{ method: "setStatus", statusKey: "k", statusText: "busy" },
			{ method: "setStatus", statusKey: "k" },
			{ method: "setWidget", widgetKey: "w", widgetLines: ["line 1"], widgetPlacement: "belowEditor" },
			{ method: "setWidget", widgetKey: "w" },
			{ method: "setTitle", title: "Title" },
			{ method: "set_editor_text", text: "pasted" },
		]);
		const ids = requests.map((r) => r.id);
		expect(new Set(ids).size).toBe(ids.length);
		for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
	});

	it("degraded methods: custom() resolves undefined, setTheme fails as documented, mode is rpc and hasUI is true", async () => {
		const results: unknown[] = [];
		harness = await start(results);
		await harness.send({ type: "prompt", message: "/ui degraded" });
		expect(results).toEqual([
			{
				custom: undefined,
				theme: { success: false, error: "Theme switching not supported in RPC mode" },
				mode: "rpc",
				hasUI: true,
				editorText: "",
				themes: [],
				expanded: false,
			},
		]);
	});
});

describe("RPC extension theme", () => {
	it("ctx.ui.theme is the configured theme, styling text for the client's terminal", async () => {
		const results: unknown[] = [];
		harness = await start(results);
		await harness.send({ type: "prompt", message: "/ui theme" });
		const [styled] = results as Record<string, string>[];
		expect(styled).toMatchObject({ name: "tau", bold: "\x1b[1mb\x1b[22m", strike: "\x1b[9mx\x1b[29m" });
		expect(styled!.accent).toMatch(/^\x1b\[38;[25];[\d;]+ma\x1b\[39m$/);
		expect(styled!.selected).toMatch(/^\x1b\[48;[25];[\d;]+ms\x1b\[49m$/);
	});
});

describe("RPC lifecycle", () => {
	it("closing stdin while idle exits 0 and writes nothing further", async () => {
		harness = await RpcHarness.start();
		await harness.data({ type: "get_state" });
		const count = harness.records.length;
		expect(await harness.close()).toBe(0);
		expect(harness.records.length).toBe(count);
		harness = undefined;
	});

	it("runs session_shutdown handlers on stdin close", async () => {
		const seen: string[] = [];
		harness = await RpcHarness.start({
			loader: {
				extensionFactories: [(pi: ExtensionAPI) => pi.on("session_shutdown", () => void seen.push("shutdown"))],
			},
		});
		await harness.data({ type: "get_state" });
		expect(await harness.close()).toBe(0);
		expect(seen).toEqual(["shutdown"]);
		harness = undefined;
	});

	it("a signal during an EOF shutdown lets it finish; a second signal exits at once", async () => {
		const listeners = process.listenerCount("SIGHUP");
		const slowShutdown = () => {
			const hold = gate();
			const factory = (pi: ExtensionAPI) => pi.on("session_shutdown", () => hold.wait());
			return { hold, factory };
		};
		// Real signals pass their name to listeners.
		const hangUp = () => (process.emit as (event: string, ...args: unknown[]) => boolean)("SIGHUP", "SIGHUP");

		const eof = slowShutdown();
		harness = await RpcHarness.start({ handleSignals: true, loader: { extensionFactories: [eof.factory] } });
		await harness.data({ type: "get_state" });
		harness.input.end();
		await eof.hold.started;
		hangUp();
		expect(harness.exitCode).toBeUndefined();
		eof.hold.open();
		expect(await harness.exited).toBe(0);
		expect(harness.exitCode).toBe(0);

		const twice = slowShutdown();
		harness = await RpcHarness.start({ handleSignals: true, loader: { extensionFactories: [twice.factory] } });
		await harness.data({ type: "get_state" });
		hangUp();
		await twice.hold.started;
		expect(harness.exitCode).toBeUndefined();
		hangUp();
		expect(harness.exitCode).toBe(129);
		twice.hold.open();
		expect(await harness.exited).toBe(129);
		expect(process.listenerCount("SIGHUP")).toBe(listeners);
		harness = undefined;
	});

	it("ctx.shutdown() while idle exits without any further command", async () => {
		harness = await RpcHarness.start({
			loader: {
				extensionFactories: [
					(pi: ExtensionAPI) =>
						pi.registerCommand("quit", {
							handler: async (_args, ctx) => ctx.shutdown(),
						}),
				],
			},
		});
		await harness.send({ type: "prompt", message: "/quit" });
		expect(await harness.exited).toBe(0);
		harness = undefined;
	});

	it("ctx.shutdown() from an idle timer, outside any command, exits without another command", async () => {
		let context: ExtensionContext | undefined;
		harness = await RpcHarness.start({
			loader: {
				extensionFactories: [
					(pi: ExtensionAPI) =>
						pi.on("session_start", (_event, ctx) => {
							context = ctx;
						}),
				],
			},
		});
		await harness.data({ type: "get_state" });
		const count = harness.records.length;
		// A timer callback of the extension, firing while no command is being handled.
		await new Promise<void>((resolve) =>
			setImmediate(() => {
				context?.shutdown();
				resolve();
			}),
		);
		expect(await harness.exited).toBe(0);
		expect(harness.records.length).toBe(count);
		harness = undefined;
	});

	it("ctx.shutdown() requested during a prompt exits after that run's agent_settled", async () => {
		harness = await RpcHarness.start({
			loader: { extensionFactories: [(pi: ExtensionAPI) => pi.on("agent_start", (_event, ctx) => ctx.shutdown())] },
		});
		const { fauxAssistantMessage } = await import("@tau/ai");
		harness.faux.setResponses([fauxAssistantMessage("last words")]);
		await harness.data({ type: "prompt", message: "go" });
		expect(await harness.exited).toBe(0);
		const types = harness.records.map((r) => r.type);
		expect(types.at(-1)).toBe("agent_settled");
		harness = undefined;
	});
});
