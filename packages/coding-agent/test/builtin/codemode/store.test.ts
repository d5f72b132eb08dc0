import type { SessionEntry } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { CODEMODE_STORE_ENTRY_TYPE, readCodemodeStore } from "../../../src/builtin/codemode/index.js";
import { createCodemodeHarness, runScript, runScripts } from "./harness.js";

const storeEntries = (entries: readonly SessionEntry[]) =>
	entries.filter((e) => e.type === "custom" && e.customType === CODEMODE_STORE_ENTRY_TYPE);

const entry = (data: unknown, id: string): SessionEntry =>
	({ type: "custom", customType: CODEMODE_STORE_ENTRY_TYPE, data, id, parentId: null, timestamp: "" }) as SessionEntry;

describe("readCodemodeStore", () => {
	it("replays deletes before sets, in branch order, skipping malformed entries", () => {
		const branch = [
			entry({ set: { a: 1, b: 2 }, delete: [] }, "1"),
			entry({ set: { a: 3 }, delete: ["a", "b"] }, "2"),
			entry({ set: "broken", delete: [] }, "3"),
			entry({ set: { c: 1 } }, "4"),
			{
				type: "custom",
				customType: "other",
				data: { set: { z: 1 }, delete: [] },
				id: "5",
				parentId: null,
				timestamp: "",
			} as SessionEntry,
		];
		expect(readCodemodeStore(branch)).toEqual({ a: 3 });
	});
});

describe("store persistence", () => {
	it("appends one entry per successful script that changed the store and none otherwise", async () => {
		const h = await createCodemodeHarness();
		const results = await runScripts(
			h,
			`store("runs", (load("runs") ?? 0) + 1); return load("runs")`,
			`return load("runs")`,
			`store("runs", 99); throw new Error("fails")`,
			`store("runs", load("runs") + 1); return load("runs")`,
		);
		expect(results.map((r) => r.isError ?? false)).toEqual([false, false, true, false]);
		expect(results[3]!.text).toContain("\n2");
		const entries = storeEntries(h.sessionManager.getBranch());
		expect(entries.map((e) => (e as { data: unknown }).data)).toEqual([
			{ set: { runs: 1 }, delete: [] },
			{ set: { runs: 2 }, delete: [] },
		]);
		expect(h.session.messages.some((m) => JSON.stringify(m).includes(CODEMODE_STORE_ENTRY_TYPE))).toBe(false);
	});

	it("survives a resumed session and stays on its branch", async () => {
		const h = await createCodemodeHarness();
		const beforeStore = h.sessionManager.getLeafId();
		await runScript(h, `store("key", "value")`);
		const resumed = await createCodemodeHarness({ harness: { sessionManager: h.sessionManager, cwd: h.cwd } });
		expect((await runScript(resumed, `return load("key")`)).text).toContain("\nvalue");
		if (beforeStore) h.sessionManager.branch(beforeStore);
		else h.sessionManager.resetLeaf();
		const sibling = await createCodemodeHarness({ harness: { sessionManager: h.sessionManager, cwd: h.cwd } });
		expect((await runScript(sibling, `return String(load("key"))`)).text).toContain("\nundefined");
	});
});
