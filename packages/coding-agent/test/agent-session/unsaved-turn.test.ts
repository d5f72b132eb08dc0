import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import { SessionManager } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { nodeSessionFileSystem, type SessionFileSystem } from "../../src/core/session/index.js";
import { tempDir } from "../support/isolated-session.js";
import { holdSession } from "../support/session-holder.js";
import { createHarness, type Harness } from "./harness.js";

/** Writes succeed until `fail()`; then every write writes half its bytes and the next one hits ENOSPC. */
function fillingDisk(): SessionFileSystem & { fail(): void } {
	let full = false;
	let tornOnce = false;
	return {
		...nodeSessionFileSystem,
		fail() {
			full = true;
		},
		writeSync(fd, data) {
			if (!full) return nodeSessionFileSystem.writeSync(fd, data);
			const bytes = typeof data === "string" ? Buffer.from(data) : data;
			if (!tornOnce && bytes.length > 1) {
				tornOnce = true;
				return nodeSessionFileSystem.writeSync(fd, bytes.subarray(0, Math.floor(bytes.length / 2)));
			}
			throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
		},
	};
}

let harness: Harness | undefined;
afterEach(() => {
	harness?.session.dispose();
	harness = undefined;
});

describe("a message that cannot be saved", () => {
	it("stops the turn, fails the prompt with 'Disk full' naming the file, and leaves a valid session file", async () => {
		const disk = fillingDisk();
		const sessionManager = SessionManager.create(tempDir(), tempDir(), {}, { fileSystem: disk });
		harness = await createHarness({ sessionManager });
		const h = harness;
		h.faux.setResponses([
			fauxAssistantMessage("first answer"),
			fauxAssistantMessage(fauxToolCall("bash", { command: "echo never runs" }, { id: "c1" }), {
				stopReason: "toolUse",
			}),
			fauxAssistantMessage("never reached"),
		]);
		await h.session.prompt("one");
		const file = sessionManager.getSessionFile()!;
		const before = readFileSync(file, "utf8");
		disk.fail();
		const since = h.events.length;
		await expect(h.session.prompt("two")).rejects.toThrow(
			`Disk full: could not write ${file}; the file was left unchanged. The turn was stopped.`,
		);
		const events = h.events.slice(since).map((event) => event.type);
		// The run ended properly (no spinner left running) and no tool ran.
		expect(events).toContain("agent_end");
		expect(events.at(-1)).toBe("agent_settled");
		expect(events).not.toContain("tool_execution_start");
		expect(h.faux.state.callCount).toBe(1);
		// The torn half line was cut off: the file is what it was, every line a complete entry.
		expect(readFileSync(file, "utf8")).toBe(before);
		for (const line of before.trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
	});

	it("negative control: with room on the disk the same turn runs its tool", async () => {
		const sessionManager = SessionManager.create(tempDir(), tempDir(), {}, { fileSystem: fillingDisk() });
		harness = await createHarness({ sessionManager });
		harness.faux.setResponses([
			fauxAssistantMessage(fauxToolCall("bash", { command: "echo ran" }, { id: "c1" }), { stopReason: "toolUse" }),
			fauxAssistantMessage("done"),
		]);
		await harness.session.prompt("two");
		expect(harness.events.map((event) => event.type)).toContain("tool_execution_start");
	});
});

describe("a session another process holds", () => {
	it("refuses a prompt before anything starts, naming the process", async () => {
		const file = join(tempDir(), "held.jsonl");
		const holder = await holdSession(file);
		try {
			const sessionManager = SessionManager.open(file);
			harness = await createHarness({ sessionManager });
			await expect(harness.session.prompt("hello")).rejects.toThrow(
				`Session ${file} is open in another process (pid ${holder.pid}); opened read-only: nothing can be added to it`,
			);
			expect(harness.events.map((event) => event.type)).not.toContain("agent_start");
			expect(harness.faux.state.callCount).toBe(0);
		} finally {
			holder.kill("SIGKILL");
		}
	});
});
