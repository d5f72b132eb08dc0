import { expect, it } from "vitest";

it("adds", () => {
	const x: number = 1;
	expect(x + 1).toBe(2);
});
