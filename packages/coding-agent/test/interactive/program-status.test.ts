import { fauxAssistantMessage } from "@tau/ai";
import type { AgentSessionEvent } from "@tau/coding-agent";
import type { ProgramStatus } from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";
import { ProgramStatusReporter } from "../../src/modes/interactive/controller/program-status.js";
import { InteractiveHarness } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

/** A reporter fed with hand-written events; `name` is the session name it reports. */
function reporter(name?: string) {
	const reports: ProgramStatus[] = [];
	const status = new ProgramStatusReporter(
		(report) => reports.push(report),
		() => name,
	);
	const feed = (...events: object[]) => {
		for (const event of events) status.handle(event as AgentSessionEvent);
	};
	return { reports, status, feed };
}

const assistant = (stopReason: string, errorMessage?: string) => ({
	type: "message_end",
	message: { role: "assistant", stopReason, ...(errorMessage ? { errorMessage } : {}) },
});

describe("program status (docs/design/interactive.md#program-status)", () => {
	it("starts idle; working and done carry the session name", () => {
		const { reports, feed } = reporter("refactor");
		feed({ type: "agent_start" }, assistant("stop"), { type: "agent_settled", aborted: false });
		expect(reports).toEqual([
			{ state: "idle", app: "tau" },
			{ state: "working", app: "tau", message: "refactor" },
			{ state: "done", app: "tau", message: "refactor" },
		]);
	});

	it("a successful retry replaces an earlier error; an aborted run rests idle", () => {
		const { reports, feed } = reporter();
		feed({ type: "agent_start" }, assistant("error", "overloaded"), assistant("stop"), {
			type: "agent_settled",
			aborted: false,
		});
		expect(reports.at(-1)).toEqual({ state: "done", app: "tau" });
		feed({ type: "agent_start" }, assistant("aborted"), { type: "agent_settled", aborted: true });
		expect(reports.at(-1)).toEqual({ state: "idle", app: "tau" });
	});

	it("a failed recovery compaction during a run ends it in error; an aborted one ends it idle", () => {
		const { reports, feed } = reporter();
		feed(
			{ type: "agent_start" },
			assistant("error", "context too long"),
			{ type: "compaction_start", reason: "overflow" },
			{ type: "compaction_end", reason: "overflow", aborted: false, errorMessage: "summary failed\nstack" },
			{ type: "agent_settled", aborted: false },
		);
		expect(reports.map((report) => report.message ?? report.state)).toContain("Compacting context");
		expect(reports.at(-1)).toEqual({ state: "error", app: "tau", message: "summary failed" });
		feed(
			{ type: "agent_start" },
			{ type: "compaction_start", reason: "overflow" },
			{ type: "compaction_end", reason: "overflow", aborted: true },
			{ type: "agent_settled", aborted: false },
		);
		expect(reports.at(-1)).toEqual({ state: "idle", app: "tau" });
	});

	it("a manual compaction while idle sets the resting status", () => {
		const { reports, feed } = reporter();
		feed(
			{ type: "compaction_start", reason: "manual" },
			{ type: "compaction_end", reason: "manual", aborted: false, result: {} },
		);
		expect(reports.at(-1)).toEqual({ state: "done", app: "tau" });
		feed(
			{ type: "compaction_start", reason: "manual" },
			{ type: "compaction_end", reason: "manual", aborted: false, errorMessage: "nope" },
		);
		expect(reports.at(-1)).toEqual({ state: "error", app: "tau" });
	});

	it("blocked wins over compaction and a run; the most recently opened dialog wins; reports are de-duplicated", () => {
		const { reports, status, feed } = reporter();
		feed({ type: "agent_start" }, { type: "compaction_start", reason: "threshold" });
		const first = status.block("question", "Pick one");
		const second = status.block("permission", "Allow rm?");
		expect(reports.at(-1)).toEqual({ state: "blocked", app: "tau", kind: "permission", message: "Allow rm?" });
		second();
		expect(reports.at(-1)).toEqual({ state: "blocked", app: "tau", kind: "question", message: "Pick one" });
		first();
		expect(reports.at(-1)).toEqual({ state: "working", app: "tau", message: "Compacting context" });
		const count = reports.length;
		feed({ type: "turn_start" }, { type: "queue_update" });
		expect(reports).toHaveLength(count);
	});

	it("/login reports blocked with kind auth while the sign-in runs, then the previous status", async () => {
		harness = await InteractiveHarness.start();
		const provider = harness.runtime.session.modelRuntime.models.getProviders().find((p) => p.id === "faux")!;
		harness.submit("/login faux");
		await harness.until(async () => (await harness!.screen()).includes("Login failed:"));
		expect(harness.terminal.statuses).toContainEqual({
			state: "blocked",
			app: "tau",
			kind: "auth",
			message: `Sign in to ${provider.name}`,
		});
		expect(harness.terminal.statuses.at(-1)).toEqual({ state: "idle", app: "tau" });
	});

	it("never reports prompts or model output, only the session name", async () => {
		harness = await InteractiveHarness.start();
		harness.runtime.session.setSessionName("demo");
		harness.faux.setResponses([fauxAssistantMessage("confidential answer")]);
		const since = harness.eventCount;
		harness.submit("confidential prompt");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		const reported = JSON.stringify(harness.terminal.statuses);
		expect(reported).not.toContain("confidential");
		expect(harness.terminal.statuses.at(-1)).toEqual({ state: "done", app: "tau", message: "demo" });
	});
});
