import { describe, expect, it } from "vitest";
import { runNotesAgent } from "../examples/notes-agent.js";

describe("examples", () => {
	it("notes-agent runs the scripted search → read → answer flow", async () => {
		const lines: string[] = [];
		const answer = await runNotesAgent((line) => lines.push(line));
		expect(answer).toBe("followUp() waits until the agent would stop (note: queues).");
		expect(lines.slice(0, 4)).toEqual([
			'tool search_notes {"query":"followUp"}',
			"tool search_notes done (error: false)",
			'tool read_note {"id":"queues"}',
			"tool read_note done (error: false)",
		]);
	});
});
