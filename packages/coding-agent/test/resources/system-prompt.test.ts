import { getCurrentSystemMessage, getCurrentSystemPrompt, getCurrentTools, type Message, type Tool } from "@tau/ai";
import type { BuildSystemPromptOptions, Skill } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	buildSystemPrompt,
	buildSystemPromptSections,
	buildSystemPromptState,
	createSystemPromptUpdate,
	diffSystemPromptSections,
} from "../../src/core/resources/index.js";

const skill: Skill = {
	name: "pdf",
	description: "PDF work",
	filePath: "/skills/pdf/SKILL.md",
	baseDir: "/skills/pdf",
	sourceInfo: { path: "/skills/pdf/SKILL.md", source: "auto", scope: "user", origin: "top-level" },
	disableModelInvocation: false,
};

const base: BuildSystemPromptOptions = {
	cwd: "/work/project",
	toolSnippets: {
		read: "Read a file",
		bash: "Run a\r\n  shell   command",
		edit: "Edit a file",
		write: "Write a file",
	},
};

function inner(section: string | undefined, name: string): string {
	expect(section?.startsWith(`<${name}>\n`)).toBe(true);
	expect(section?.endsWith(`\n</${name}>`)).toBe(true);
	return (section as string).slice(name.length + 3, -(name.length + 4));
}

describe("system prompt sections", () => {
	it("orders and tags every section, leaving only the preamble untagged", () => {
		const sections = buildSystemPromptSections({
			...base,
			appendSystemPrompt: "Extra rules",
			contextFiles: [{ path: "/work/AGENTS.md", content: "Use tabs." }],
			skills: [skill],
			sections: { team: "Team notes", empty: "" },
		});
		expect(Object.keys(sections)).toEqual([
			"preamble",
			"tools",
			"rules",
			"docs",
			"addendum",
			"project_context",
			"skills",
			"cwd",
			"team",
		]);
		expect(sections.preamble).toMatch(/^You are a coding assistant running inside tau/);
		expect(inner(sections.addendum, "addendum")).toBe("Extra rules");
		expect(inner(sections.project_context, "project_context")).toContain(
			'<project_instructions path="/work/AGENTS.md">\nUse tabs.\n</project_instructions>',
		);
		expect(inner(sections.cwd, "cwd")).toBe("/work/project");
		expect(inner(sections.team, "team")).toBe("Team notes");
		expect(inner(sections.skills, "skills")).toContain("<location>/skills/pdf/SKILL.md</location>");
	});

	it("lists declared tools with one-line snippets, skipping hidden and snippet-less tools", () => {
		const sections = buildSystemPromptSections({
			...base,
			selectedTools: ["read", "bash", "secret", "write"],
			hiddenTools: ["write"],
		});
		expect(inner(sections.tools, "tools")).toBe(
			"- read: Read a file\n- bash: Run a shell command\n\nFurther tools may be made available to you during the conversation.",
		);
		const none = buildSystemPromptSections({ ...base, selectedTools: [] });
		expect(inner(none.tools, "tools").startsWith("(none)\n\n")).toBe(true);
	});

	it("builds rules: the search rule only without grep/find/ls, tool guidelines, extra rules, deduplicated", () => {
		const rules = (options: Partial<BuildSystemPromptOptions>) =>
			inner(buildSystemPromptSections({ ...base, ...options }).rules, "rules").split("\n");
		const bashOnly = rules({ selectedTools: ["read", "bash"] });
		expect(bashOnly[0]).toBe("- Use bash to list and search files (ls, rg, find).");
		expect(rules({ selectedTools: ["powershell"] })[0]).toMatch(/PowerShell/);
		expect(rules({ selectedTools: ["bash", "powershell"] })[0]).toMatch(/bash .* or PowerShell/);
		expect(rules({ selectedTools: ["bash", "grep"] })[0]).not.toMatch(/list and search/);
		const combined = rules({
			selectedTools: ["read", "edit"],
			toolGuidelines: { edit: [" Prefer small edits ", "Prefer small edits"], read: ["Read before editing"] },
			promptGuidelines: ["Read before editing", "Run the tests"],
		});
		expect(combined).toEqual([
			"- Read before editing",
			"- Prefer small edits",
			"- Run the tests",
			"- Be concise in your responses.",
			"- Show file paths clearly when working with files.",
		]);
	});

	it("uses a custom prompt as the preamble and drops tools, rules and docs", () => {
		const sections = buildSystemPromptSections({
			...base,
			customPrompt: "You are a reviewer.",
			appendSystemPrompt: "Be strict.",
			contextFiles: [{ path: "/a/AGENTS.md", content: "x" }],
			skills: [skill],
		});
		expect(Object.keys(sections)).toEqual(["preamble", "addendum", "project_context", "skills", "cwd"]);
		expect(sections.preamble).toBe("You are a reviewer.");
	});

	it("adds skills only when a reader exists and some skill is model-visible", () => {
		const keys = (options: Partial<BuildSystemPromptOptions>) =>
			Object.keys(buildSystemPromptSections({ ...base, skills: [skill], ...options }));
		expect(keys({ selectedTools: ["edit", "write"] })).not.toContain("skills");
		expect(keys({ selectedTools: ["bash"] })).toContain("skills");
		expect(keys({ skills: [{ ...skill, disableModelInvocation: true }] })).not.toContain("skills");
		const indirect = buildSystemPromptSections({
			...base,
			skills: [skill],
			selectedTools: ["read"],
			hiddenTools: ["read"],
		});
		expect(indirect.skills).toBeDefined();
		expect(indirect.skills).not.toMatch(/read tool|use bash/);
	});

	it("contains no date or time and normalizes backslashes in the cwd", () => {
		const text = buildSystemPrompt({ ...base, cwd: "C:\\Users\\ana\\repo" });
		expect(text).toContain("<cwd>\nC:/Users/ana/repo\n</cwd>");
		const now = new Date();
		expect(text).not.toContain(String(now.getFullYear()));
		expect(text).not.toMatch(/\d{1,2}:\d{2}/);
	});

	it("rejects invalid custom section names and lets a built-in name replace content in place", () => {
		expect(() => buildSystemPromptSections({ ...base, sections: { "Bad Name": "x" } })).toThrow(
			"Invalid system prompt section name: Bad Name",
		);
		expect(() => buildSystemPromptSections({ ...base, sections: { preamble: "x" } })).toThrow(
			"Invalid system prompt section name: preamble",
		);
		const sections = buildSystemPromptSections({ ...base, sections: { rules: "- only this" } });
		expect(Object.keys(sections).indexOf("rules")).toBe(2);
		expect(sections.rules).toBe("<rules>\n- only this\n</rules>");
	});

	it("does not let callers mutate the input through the built structure", () => {
		const options: BuildSystemPromptOptions = { ...base, selectedTools: ["read"], promptGuidelines: ["a"] };
		buildSystemPromptSections(options);
		expect(options.selectedTools).toEqual(["read"]);
		expect(options.promptGuidelines).toEqual(["a"]);
	});

	it("renders sections joined by blank lines, or the forced prompt alone", () => {
		const sections = buildSystemPromptSections(base);
		expect(buildSystemPrompt(base)).toBe(Object.values(sections).join("\n\n"));
		expect(buildSystemPromptState({ ...base, forceSystemPrompt: "Exactly this." })).toEqual({
			content: "Exactly this.",
		});
		expect(buildSystemPrompt({ ...base, forceSystemPrompt: "Exactly this." })).toBe("Exactly this.");
	});
});

describe("system prompt diff", () => {
	const tool = (name: string, description = name): Tool => ({
		name,
		description,
		parameters: { type: "object", properties: {} },
	});

	it("returns only changed or new sections, and null for removed ones", () => {
		expect(diffSystemPromptSections({ a: "1", b: "2" }, { a: "1", b: "2" })).toBeUndefined();
		expect(diffSystemPromptSections({ a: "1", b: "2" }, { a: "1", b: "3", c: "4" })).toEqual({ b: "3", c: "4" });
		expect(diffSystemPromptSections({ a: "1", b: "2" }, { a: "1" })).toEqual({ b: null });
	});

	it("persists a full message first, then patches only for changes, and nothing when unchanged", () => {
		const transcript: Message[] = [];
		const first = buildSystemPromptSections(base);
		const full = createSystemPromptUpdate(transcript, { sections: first, tools: [tool("read")] }, 1);
		expect(full).toEqual({ role: "system", content: "", sections: first, toolsAdded: [tool("read")], timestamp: 1 });
		transcript.push(full as Message, { role: "user", content: "hi", timestamp: 2 });

		expect(createSystemPromptUpdate(transcript, { sections: first, tools: [tool("read")] }, 3)).toBeUndefined();

		const withAddendum = buildSystemPromptSections({ ...base, appendSystemPrompt: "New rule" });
		const patch = createSystemPromptUpdate(transcript, { sections: withAddendum, tools: [tool("read")] }, 4);
		expect(patch).toEqual({
			role: "system",
			content: "",
			sections: { addendum: "<addendum>\nNew rule\n</addendum>" },
			timestamp: 4,
		});
		transcript.push(patch as Message);
		// Replay appends a new section at the end; the content equals a fresh build.
		expect(getCurrentSystemMessage(transcript)?.sections).toEqual(withAddendum);
		expect(getCurrentSystemPrompt(transcript)).toContain("<addendum>\nNew rule\n</addendum>");

		const removal = createSystemPromptUpdate(transcript, { sections: first, tools: [tool("read")] }, 5);
		expect(removal?.sections).toEqual({ addendum: null });
		transcript.push(removal as Message);
		expect(getCurrentSystemMessage(transcript)?.sections).toEqual(first);
	});

	it("records tool changes as removal plus addition", () => {
		const transcript: Message[] = [
			{
				role: "system",
				content: "",
				sections: { cwd: "x" },
				toolsAdded: [tool("read"), tool("bash")],
				timestamp: 0,
			},
		];
		const update = createSystemPromptUpdate(
			transcript,
			{ sections: { cwd: "x" }, tools: [tool("read", "changed"), tool("grep")] },
			1,
		);
		expect(update).toEqual({
			role: "system",
			content: "",
			toolsRemoved: [{ name: "read" }, { name: "bash" }],
			toolsAdded: [tool("read", "changed"), tool("grep")],
			timestamp: 1,
		});
		transcript.push(update as Message);
		expect(getCurrentTools(transcript).map((t) => [t.name, t.description])).toEqual([
			["read", "changed"],
			["grep", "grep"],
		]);
	});

	it("keeps a forced prompt out of the persisted sections", () => {
		const forced = { ...base, forceSystemPrompt: "Forced." };
		const sections = buildSystemPromptSections(forced);
		const full = createSystemPromptUpdate([], { sections, tools: [] }, 1);
		expect(JSON.stringify(full)).not.toContain("Forced.");
		expect(buildSystemPrompt(forced)).toBe("Forced.");
	});
});
