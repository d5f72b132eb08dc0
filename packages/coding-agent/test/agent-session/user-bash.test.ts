import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import { type BashOperations, SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/isolated-session.js";
import { createHarness, gate, heldResponse, textOfMessage } from "./harness.js";

function userTexts(request: { messages: { role: string }[] }): string[] {
	return request.messages.filter((m) => m.role === "user").map((m) => textOfMessage(m as never));
}

/** Operations that print a line and wait for the signal before finishing (no real shell, no timers). */
function scriptedOperations(output: string, finish: Promise<void>): BashOperations {
	return {
		exec: async (_command, _cwd, { onData, signal }) => {
			onData(Buffer.from(output));
			await new Promise<void>((resolve) => {
				if (signal?.aborted) return resolve();
				signal?.addEventListener("abort", () => resolve(), { once: true });
				void finish.then(resolve);
			});
			return { exitCode: signal?.aborted ? null : 0 };
		},
	};
}

describe("AgentSession user bash", () => {
	it("executeBash streams output and records a bashExecution the next request carries", async () => {
		const h = await createHarness();
		const chunks: string[] = [];
		const result = await h.session.executeBash("echo hi", (text) => chunks.push(text), {
			operations: scriptedOperations("hi\u001b[31m!\n", Promise.resolve()),
		});
		expect(result).toEqual({ output: "hi!\n", exitCode: 0, cancelled: false, truncated: false });
		expect(chunks.join("")).toBe("hi!\n");
		expect(h.session.isBashRunning).toBe(false);
		const recorded = h.sessionManager.getBranch().at(-1);
		expect(recorded).toMatchObject({ type: "message", message: { role: "bashExecution", command: "echo hi" } });

		h.faux.setResponses([fauxAssistantMessage("seen")]);
		await h.session.prompt("what did it print?");
		const texts = userTexts(h.requests[0]!);
		expect(texts).toHaveLength(2);
		expect(texts[0]).toContain("echo hi");
		expect(texts[0]).toContain("hi!");
		expect(texts[1]).toBe("what did it print?");
	});

	it("runs the real local shell in the session cwd", async () => {
		const h = await createHarness();
		const result = await h.session.executeBash("pwd && exit 3");
		expect(result.exitCode).toBe(3);
		expect(result.output.trim()).toBe(h.cwd);
	});

	it("a result recorded while a run is active is held until the run settles, then precedes the next prompt", async () => {
		const h = await createHarness();
		const hold = gate();
		h.faux.setResponses([heldResponse(hold, fauxAssistantMessage("first")), fauxAssistantMessage("second")]);
		const running = h.session.prompt("one");
		await hold.started;
		h.session.recordBashResult("ls", { output: "a.txt\n", exitCode: 0, cancelled: false, truncated: false });
		h.session.recordBashResult(
			"secret",
			{ output: "hidden\n", exitCode: 0, cancelled: false, truncated: false },
			{ excludeFromContext: true },
		);
		expect(h.session.hasPendingBashMessages).toBe(true);
		expect(
			h.sessionManager
				.getBranch()
				.some((entry) => entry.type === "message" && entry.message.role === "bashExecution"),
		).toBe(false);
		hold.release();
		await running;
		expect(h.session.hasPendingBashMessages).toBe(false);
		const roles = h.sessionManager
			.getBranch()
			.flatMap((entry) => (entry.type === "message" ? [entry.message.role] : []))
			.slice(-3);
		expect(roles).toEqual(["assistant", "bashExecution", "bashExecution"]);
		await h.session.prompt("two");
		const texts = userTexts(h.requests[1]!);
		expect(texts.some((text) => text.includes("a.txt"))).toBe(true);
		expect(texts.some((text) => text.includes("hidden"))).toBe(false);
	});

	it("abortBash cancels a running command: the result reports cancelled without an exit code", async () => {
		const h = await createHarness();
		const never = new Promise<void>(() => {});
		let started!: () => void;
		const output = new Promise<void>((resolve) => {
			started = resolve;
		});
		const running = h.session.executeBash("sleep forever", () => started(), {
			operations: scriptedOperations("working\n", never),
		});
		await output;
		expect(h.session.isBashRunning).toBe(true);
		h.session.abortBash();
		const result = await running;
		expect(result).toMatchObject({ cancelled: true, exitCode: undefined, output: "working\n" });
		expect(h.session.isBashRunning).toBe(false);
	});
});

describe("AgentSession stats and export", () => {
	it("getSessionStats counts messages and totals usage over the file", async () => {
		const h = await createHarness();
		h.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await h.session.prompt("a");
		await h.session.prompt("b");
		const stats = h.session.getSessionStats();
		expect(stats).toMatchObject({
			sessionId: h.session.sessionId,
			userMessages: 2,
			assistantMessages: 2,
			toolCalls: 0,
			toolResults: 0,
		});
		const usage = h.session.messages
			.filter((m) => m.role === "assistant")
			.reduce((sum, m) => sum + (m as { usage: { totalTokens: number } }).usage.totalTokens, 0);
		expect(stats.tokens.total).toBe(usage);
		expect(stats.sessionFile).toBeUndefined();
	});

	it("exportToHtml and exportToJsonl write the session (default names from the session) and return the paths", async () => {
		const cwd = tempDir();
		const sessionManager = SessionManager.create(cwd, join(tempDir("tau-sessions-"), "s"));
		const h = await createHarness({ cwd, sessionManager });
		h.faux.setResponses([fauxAssistantMessage("<b>answer</b>")]);
		await h.session.prompt("question");
		const html = await h.session.exportToHtml();
		const stem = h.session
			.sessionFile!.split("/")
			.at(-1)!
			.replace(/\.jsonl$/, "");
		expect(html).toBe(join(cwd, `${stem}.html`));
		const page = readFileSync(html, "utf8");
		expect(page).toContain("<title>question · tau</title>");
		// The answer is in the page's inert session data (docs/export.md), with `<` escaped.
		expect(page).toContain("\\u003cb>answer\\u003c/b>");

		const jsonl = h.session.exportToJsonl("copy.jsonl");
		expect(jsonl).toBe(join(cwd, "copy.jsonl"));
		expect(readFileSync(jsonl, "utf8")).toBe(readFileSync(h.session.sessionFile!, "utf8"));
		expect(() => h.session.exportToJsonl(h.session.sessionFile!)).toThrow(/onto its own file/);
		expect(existsSync(join(cwd, "copy.jsonl"))).toBe(true);
	});
});
