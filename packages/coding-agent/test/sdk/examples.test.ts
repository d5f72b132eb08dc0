import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { run as runMinimal } from "../../../../examples/sdk/01-minimal.js";
import { PRODUCT_RULES, run as runIsolated } from "../../../../examples/sdk/02-isolated-resources.js";
import { run as runRestore } from "../../../../examples/sdk/03-restore-history.js";
import { run as runPolicy } from "../../../../examples/sdk/04-policy-extension.js";
import { run as runRuntime } from "../../../../examples/sdk/05-session-runtime.js";
import { textOfMessage } from "../agent-session/harness.js";
import { tempDir } from "../support/isolated-session.js";

function dirs() {
	const cwd = tempDir("tau-example-");
	const agentDir = join(tempDir("tau-agent-"), "agent");
	mkdirSync(agentDir, { recursive: true });
	return { cwd, agentDir };
}

const TESTED = [
	"01-minimal.ts",
	"02-isolated-resources.ts",
	"03-restore-history.ts",
	"04-policy-extension.ts",
	"05-session-runtime.ts",
];

describe("examples/sdk", () => {
	it("every example file is run by a test below", () => {
		const examples = readdirSync(resolve(import.meta.dirname, "../../../../examples/sdk")).filter((name) =>
			name.endsWith(".ts"),
		);
		expect(examples.sort()).toEqual(TESTED);
	});

	it("01-minimal streams the offline answer and returns the final text", async () => {
		const { cwd, agentDir } = dirs();
		writeFileSync(join(cwd, "README.md"), "# Example project\n");
		let streamed = "";
		const answer = await runMinimal({ cwd, agentDir, write: (text) => (streamed += text) });
		expect(answer).toContain("offline demo model");
		expect(answer).toContain("README.md");
		expect(streamed.trim()).toBe(answer);
	});

	it("02-isolated-resources ignores project instructions and keeps the product rules", async () => {
		const { cwd, agentDir } = dirs();
		writeFileSync(join(cwd, "AGENTS.md"), "SENTINEL_AGENTS");
		mkdirSync(join(cwd, ".tau"), { recursive: true });
		writeFileSync(join(cwd, ".tau", "SYSTEM.md"), "SENTINEL_SYSTEM");
		writeFileSync(join(cwd, ".tau", "APPEND_SYSTEM.md"), "SENTINEL_APPEND");
		const result = await runIsolated({ cwd, agentDir });
		expect(result.tools).toEqual(["read", "grep", "find", "ls"]);
		expect(result.systemPrompt).toContain(PRODUCT_RULES);
		expect(result.systemPrompt).not.toMatch(/SENTINEL/);
		expect(result.answer).toContain("AGENTS.md");
	});

	it("03-restore-history puts the restored turns before the new one", async () => {
		const { cwd, agentDir } = dirs();
		const messages = await runRestore({
			cwd,
			agentDir,
			history: [{ question: "earlier question", answer: "earlier answer" }],
		});
		const texts = messages.filter((message) => message.role === "user").map((message) => textOfMessage(message));
		expect(texts).toEqual(["earlier question", "And now?"]);
	});

	it("04-policy-extension blocks bash before it runs", async () => {
		const { cwd, agentDir } = dirs();
		const result = await runPolicy({ cwd, agentDir });
		expect(result.blocked).toEqual(["bash"]);
		expect(result.toolResult && textOfMessage(result.toolResult)).toBe("no shell in this product");
	});

	it("05-session-runtime switches sessions and re-binds after each replacement", async () => {
		const { cwd, agentDir } = dirs();
		const result = await runRuntime({ cwd, agentDir, sessionDir: join(agentDir, "sessions") });
		expect(result.transcript).toHaveLength(2);
		expect(result.transcript[0]).not.toBe(result.transcript[1]);
		expect(result.resumedFile).toBe(result.firstFile);
	});
});
