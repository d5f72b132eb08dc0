import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildSystemPromptSections } from "../../src/core/resources/index.js";
import { documentationPaths } from "../support/doc-paths.js";

describe("the system prompt's documentation paths", () => {
	it("all exist in a source checkout, so the agent can read about itself", () => {
		const section = buildSystemPromptSections({ cwd: "/work/project" }).docs!;
		const paths = documentationPaths(section);
		expect(paths.length).toBeGreaterThanOrEqual(11);
		expect(paths.filter((path) => !existsSync(path))).toEqual([]);
	});
});
