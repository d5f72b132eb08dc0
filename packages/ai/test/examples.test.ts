import { describe, expect, it } from "vitest";
import { runQuickstart } from "../examples/faux-quickstart.js";

describe("examples", () => {
	it("faux-quickstart runs the tool round trip offline", async () => {
		const lines: string[] = [];
		const reply = await runQuickstart((line) => lines.push(line));
		expect(lines).toContain('tool call: get_weather {"city":"Lisbon","days":"2"}');
		expect(reply.stopReason).toBe("stop");
		expect(reply.content).toEqual([{ type: "text", text: "The forecast says: sunny in Lisbon for 2 days" }]);
	});
});
