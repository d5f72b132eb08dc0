import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { loadEntriesFromFile } from "../../src/core/session/index.js";
import { assistant, fixture, tempDir, toolCallAssistant, toolResult, usage, user } from "./helpers.js";
import { checkPiSessionFile } from "./pi-shapes.js";

const golden = JSON.parse(readFileSync(fixture("pi-v3-full.context.json"), "utf8"));

describe("compatibility with pi 1.6 session files", () => {
	it("a pi-written file projects exactly the stored golden context on every branch", () => {
		const manager = SessionManager.open(fixture("pi-v3-full.jsonl"), undefined, undefined, { readOnly: true });
		expect(manager.getLeafId()).toBe("a0000019");
		expect(manager.buildSessionContext()).toEqual(golden.a0000019);
		for (const leaf of ["a0000010", "b0000001"]) {
			manager.branch(leaf);
			expect(manager.buildSessionContext()).toEqual(golden[leaf]);
		}
	});

	it("reads labels, the session name and multiple roots of a pi file", () => {
		const manager = SessionManager.open(fixture("pi-v3-full.jsonl"), undefined, undefined, { readOnly: true });
		expect(manager.getLabel("b0000001")).toBe("alt");
		expect(manager.getLabel("a0000004")).toBeUndefined();
		expect(manager.getSessionName()).toBe("TODO hunt");
		const roots = manager.getTree();
		expect(roots.map((node) => node.entry.id)).toEqual(["a0000001", "b0000002"]);
		const branchPoint = manager.getEntry("a0000007")!;
		expect(manager.getChildren(branchPoint.id).map((entry) => entry.id)).toEqual(["a0000008", "b0000001"]);
		expect(manager.getCwd()).toBe("/home/ana/src/app");
	});

	it("a tau-written session passes a strict pi 1.6 shape check", () => {
		const dir = tempDir();
		const manager = SessionManager.create("/w", dir);
		manager.appendModelChange("faux", "faux-1");
		manager.appendThinkingLevelChange("low");
		manager.appendMessage({ role: "system", content: "prompt", timestamp: 1 });
		const first = manager.appendMessage(user("read a.ts"));
		manager.appendMessage(toolCallAssistant([{ id: "c1", name: "read", arguments: { path: "a.ts" } }]));
		const result = manager.appendMessage(toolResult("c1", "contents"));
		manager.appendMessage(assistant("done"));
		manager.appendMessage({
			role: "bashExecution",
			command: "ls",
			output: "",
			exitCode: 0,
			cancelled: false,
			truncated: false,
			timestamp: 2,
		});
		manager.appendUsage("cache_warm", "faux", "faux-1", usage(1, 0));
		manager.appendCustomEntry("state", { a: 1 });
		manager.appendCustomMessageEntry("note", "hello", true, { x: 1 });
		manager.appendContextEdit(result, null);
		manager.appendLabelChange(first, "start");
		manager.appendSessionInfo("name");
		manager.appendCompaction("summary", first, 100, { readFiles: [], modifiedFiles: [] });
		manager.branchWithSummary(first, "side summary");
		manager.appendLabelChange(first);
		const content = readFileSync(manager.getSessionFile()!, "utf8");
		expect(checkPiSessionFile(content)).toEqual([]);
		expect(content.split("\n")).toHaveLength(19);
		manager.dispose();
	});

	it("the strict checker rejects what pi could not read (negative control)", () => {
		const header = '{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}\n';
		expect(
			checkPiSessionFile(
				`${header}{"type":"leaf_pointer","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z"}\n`,
			),
		).not.toEqual([]);
		expect(
			checkPiSessionFile(
				`${header}{"type":"model_change","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","provider":"p"}\n`,
			),
		).not.toEqual([]);
	});

	it("unknown entry types and fields survive fork, branch extraction and migration", () => {
		const dir = tempDir();
		const source = join(dir, "source.jsonl");
		copyFileSync(fixture("pi-v3-full.jsonl"), source);
		const unknown = loadEntriesFromFile(source).filter(
			(e) => (e.type as string) === "future_thing" || "extraField" in e,
		);
		expect(unknown).toHaveLength(2);

		const forked = SessionManager.forkFrom(source, "/elsewhere", join(dir, "forks"));
		for (const entry of unknown) expect(forked.getEntry((entry as { id: string }).id)).toEqual(entry);
		forked.dispose();

		const branched = SessionManager.open(source, dir);
		branched.createBranchedSession("a0000017");
		const reopened = loadEntriesFromFile(branched.getSessionFile()!);
		for (const entry of unknown) {
			const copy = reopened.find((e) => (e as { id?: string }).id === (entry as { id: string }).id);
			expect({ ...copy, parentId: null }).toEqual({ ...entry, parentId: null });
		}
		branched.dispose();

		const v2 = join(dir, "v2.jsonl");
		copyFileSync(fixture("v2-hook-message.jsonl"), v2);
		SessionManager.open(v2).dispose();
		const mystery = loadEntriesFromFile(v2).find((e) => (e.type as string) === "mystery");
		expect(mystery).toEqual({
			type: "mystery",
			id: "c0000003",
			parentId: "c0000002",
			timestamp: "2025-09-01T10:00:03.000Z",
			secret: [1, 2, 3],
		});
	});
});
