import { describe, expect, it } from "vitest";
import { countNoun } from "../../src/core/text/count-noun.js";

describe("countNoun: counts shown to users agree with their noun", () => {
	it("uses the singular for exactly one and the plural otherwise", () => {
		expect(countNoun(1, "entry", "entries")).toBe("1 entry");
		expect(countNoun(0, "entry", "entries")).toBe("0 entries");
		expect(countNoun(2, "tool")).toBe("2 tools");
		expect(countNoun(1, "message")).toBe("1 message");
	});
});
