import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import { createReadToolDefinition, type ExtensionAPI } from "@tau/coding-agent";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { createHarness, gate, heldResponse } from "../agent-session/harness.js";
import { createFauxRuntime } from "../support/faux-runtime.js";
import { tempDir } from "../support/isolated-session.js";

/** An extension asking to continue after every turn, once. */
function continueOnce() {
	let asked = false;
	return (pi: ExtensionAPI) => {
		pi.on("turn_end", () => {
			if (asked) return undefined;
			asked = true;
			return { continue: true };
		});
	};
}

describe("turn_end continuation", () => {
	it("adds no request when the turn has tool results pending anyway", async () => {
		const errors: string[] = [];
		const h = await createHarness({
			session: {
				customTools: [
					{
						name: "noop",
						label: "noop",
						description: "does nothing",
						parameters: Type.Object({}),
						execute: async () => ({ content: [{ type: "text", text: "done" }], details: undefined }),
					},
				],
			},
			loader: { extensionFactories: [continueOnce()] },
		});
		await h.session.bindExtensions({ onError: (error) => errors.push(error.error) });
		h.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("noop", {}, { id: "n1" })], { stopReason: "toolUse" }),
			fauxAssistantMessage("finished"),
			fauxAssistantMessage("an extra request"),
		]);
		await h.session.prompt("go");
		expect(h.faux.state.callCount).toBe(2);
		expect(h.session.getLastAssistantText()).toBe("finished");
		expect(errors).toEqual([]);
	});

	it("does not continue an error turn", async () => {
		const errors: string[] = [];
		const h = await createHarness({
			settings: { retry: { enabled: false } },
			loader: { extensionFactories: [continueOnce()] },
		});
		await h.session.bindExtensions({ onError: (error) => errors.push(error.error) });
		h.faux.setResponses([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "provider down" }),
			fauxAssistantMessage("an extra request"),
		]);
		await h.session.prompt("go");
		expect(h.faux.state.callCount).toBe(1);
		expect(h.session.getLastAssistantText()).not.toBe("an extra request");
		// Ignored silently: continuing a failed turn is not reported as a handler mistake.
		expect(errors).toEqual([]);
	});
	it("does not continue an aborted turn", async () => {
		const errors: string[] = [];
		const h = await createHarness({ loader: { extensionFactories: [continueOnce()] } });
		await h.session.bindExtensions({ onError: (error) => errors.push(error.error) });
		const hold = gate();
		h.faux.setResponses([
			heldResponse(hold, fauxAssistantMessage("cut off")),
			fauxAssistantMessage("an extra request"),
		]);
		const running = h.session.prompt("go");
		await hold.started;
		const aborting = h.session.abort();
		hold.release();
		await Promise.all([running, aborting]);
		expect(h.faux.state.callCount).toBe(1);
		expect(errors).toEqual([]);
	});
});

describe("session_before_fork", () => {
	it("cancelling keeps the session: no shutdown, no replacement", async () => {
		const log: string[] = [];
		const { runtime, faux } = await createFauxRuntime({
			cwd: tempDir(),
			agentDir: tempDir("tau-agent-"),
			persisted: true,
			extension: (pi: ExtensionAPI) => {
				pi.on("session_before_fork", () => {
					log.push("before_fork");
					return { cancel: true };
				});
				pi.on("session_shutdown", (event) => {
					log.push(`shutdown:${event.reason}`);
				});
			},
		});
		const original = runtime.session;
		await original.bindExtensions({});
		faux.setResponses([fauxAssistantMessage("ok")]);
		await original.prompt("fork me");
		const [userMessage] = original.getUserMessagesForForking();
		expect(await runtime.fork(userMessage!.entryId)).toEqual({ cancelled: true });
		expect(log).toEqual(["before_fork"]);
		expect(runtime.session).toBe(original);
		expect(original.sessionFile).toBeDefined();
	});
});

describe("built-in tool overrides", () => {
	it("an override of read does not inherit the built-in prompt snippet or guidelines", async () => {
		const builtin = createReadToolDefinition(tempDir());
		const h = await createHarness({
			session: { tools: ["read"] },
			extension: (pi: ExtensionAPI) => {
				pi.registerTool({
					name: "read",
					label: "Read",
					description: "Reads through a remote backend",
					parameters: builtin.parameters,
					execute: builtin.execute,
				});
			},
		});
		expect(builtin.promptSnippet).toBeTruthy();
		const tools = /<tools>\n([\s\S]*?)\n<\/tools>/.exec(h.session.systemPrompt)?.[1] ?? "";
		expect(tools).not.toContain("- read:");
		expect(tools.startsWith("(none)")).toBe(true);
		for (const guideline of builtin.promptGuidelines ?? []) expect(h.session.systemPrompt).not.toContain(guideline);
	});
});
