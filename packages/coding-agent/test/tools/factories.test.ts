import type { AgentTool } from "@tau/agent";
import {
	createAllTools,
	createCodingTools,
	createEditTool,
	createLsTool,
	createReadOnlyTools,
	createReadTool,
	createWriteTool,
	type EditOperations,
	type LsOperations,
	noSearchBinaries,
	type ReadOperations,
	type WriteOperations,
} from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	allToolNames,
	createAllToolDefinitions,
	createTool,
	matchesToolPattern,
	parseToolsFlag,
	resolveToolSelection,
	type ToolName,
} from "../../src/core/tools/index.js";
import { tempDir, textOf } from "./helpers.js";

describe("tool inventory", () => {
	it("registers all eight built-ins and activates exactly read, bash, edit, write by default", () => {
		expect([...allToolNames].sort()).toEqual(["bash", "edit", "find", "grep", "ls", "powershell", "read", "write"]);
		expect(Object.keys(createAllToolDefinitions("/")).sort()).toEqual([...allToolNames].sort());
		expect(resolveToolSelection({}).initialActiveToolNames).toEqual(["read", "bash", "edit", "write"]);
		expect(createCodingTools("/").map((tool) => tool.name)).toEqual(["read", "bash", "edit", "write"]);
		expect(createReadOnlyTools("/").map((tool) => tool.name)).toEqual(["read", "grep", "find", "ls"]);
	});

	it("carries the metadata the spec assigns to each tool", () => {
		const definitions = createAllToolDefinitions("/");
		const tools = createAllTools("/");
		for (const name of allToolNames) {
			expect(definitions[name].executionMode).toBe("parallel");
			expect(definitions[name].promptSnippet.length).toBeGreaterThan(0);
			expect(tools[name].promptSnippet !== undefined).toBe(name === "bash" || name === "powershell");
		}
		for (const name of ["read", "bash", "edit", "write", "powershell"] as ToolName[]) {
			expect(definitions[name].constrainedSampling).toEqual({ type: "json_schema", strict: "prefer" });
		}
		for (const name of ["grep", "find", "ls"] as ToolName[])
			expect(definitions[name].constrainedSampling).toBeUndefined();
		expect(definitions.read.outputSchema).toBeDefined();
		expect(definitions.bash.outputSchema).toBeDefined();
		expect(definitions.edit.renderShell).toBe("self");
		expect(tools.edit.prepareArguments).toBeTypeOf("function");
		expect(definitions.read.description).toMatch(/jpg, png, gif, webp, bmp/);
		expect(definitions.read.description).toMatch(/2000 lines or 50KB/);
	});

	it("gives tools an agent can run directly", async () => {
		// Type-checked: every built-in is an AgentTool of @tau/agent.
		const agentTools: AgentTool<any>[] = Object.values(createAllTools("/"));
		const read: AgentTool<any> = createReadTool("/");
		expect(agentTools).toHaveLength(8);
		const dir = tempDir();
		await expect(read.execute("c", { path: dir })).rejects.toThrow(/EISDIR/);
	});

	it("rejects unknown tool names", () => {
		expect(() => createTool("nope" as ToolName, "/")).toThrow("Unknown tool name: nope");
	});

	it("fails powershell at execution on non-Windows", async () => {
		if (process.platform === "win32") return;
		await expect(createTool("powershell", "/").execute("c", { command: "Get-Date" })).rejects.toThrow(
			"The powershell tool is only available on Windows.",
		);
	});

	it("rejects a pre-aborted call in every tool without side effects", async () => {
		const dir = tempDir();
		const tools = createAllTools(dir, { grep: { binaries: noSearchBinaries }, find: { binaries: noSearchBinaries } });
		const params: Record<ToolName, unknown> = {
			read: { path: "x" },
			bash: { command: "touch ran" },
			powershell: { command: "x" },
			edit: { path: "x", edits: [{ oldText: "a", newText: "b" }] },
			write: { path: "x", content: "x" },
			grep: { pattern: "x" },
			find: { pattern: "*" },
			ls: {},
		};
		for (const name of allToolNames) {
			const expected = name === "bash" || name === "powershell" ? "Command aborted" : "Operation aborted";
			await expect(tools[name].execute("c", params[name], AbortSignal.abort()), name).rejects.toThrow(expected);
		}
		expect(textOf(await tools.ls.execute("c", {}))).toBe("(empty directory)");
	});
});

describe("tool selection grammar", () => {
	it("parses allowlists and modifiers, rejecting mixes and modifier patterns", () => {
		expect(parseToolsFlag("--tools", "read, grep ,,mcp__*")).toEqual({
			kind: "allowlist",
			patterns: ["read", "grep", "mcp__*"],
		});
		expect(parseToolsFlag("-t", "+grep,-write")).toEqual({ kind: "modifiers", modifiers: ["+grep", "-write"] });
		expect(() => parseToolsFlag("--tools", "read,+bash")).toThrow(
			"--tools: tool names cannot be mixed with +name or -name entries",
		);
		expect(() => parseToolsFlag("-t", "+mcp*")).toThrow(
			"-t: +name and -name entries take exact tool names, not patterns: +mcp*",
		);
	});

	it("applies modifiers to the default set and keeps it restorable", () => {
		const selection = resolveToolSelection({ tools: parseToolsFlag("--tools", "+grep,-write") });
		expect(selection.initialActiveToolNames).toEqual(["read", "bash", "edit", "grep"]);
		expect(selection.allowedToolNames).toBeUndefined();
		expect(selection.usesDefaultTools).toBe(true);
		expect(selection.defaultToolModifiers).toEqual(["+grep", "-write"]);
	});

	it("uses an allowlist as given, and applies exclusions last", () => {
		const selection = resolveToolSelection({
			tools: parseToolsFlag("--tools", "read,grep,my_*"),
			excludeTools: ["gr*"],
		});
		expect(selection.allowedToolNames).toEqual(["read", "grep", "my_*"]);
		expect(selection.initialActiveToolNames).toEqual(["read", "my_*"]);
		expect(selection.usesDefaultTools).toBe(false);
		expect(matchesToolPattern("my_tool", "my_*")).toBe(true);
		expect(matchesToolPattern("my.tool", "my_*")).toBe(false);
	});

	it("honours the defaultTools setting and the no-tools switches", () => {
		expect(resolveToolSelection({ defaultTools: ["read", "ls"] }).initialActiveToolNames).toEqual(["read", "ls"]);
		expect(resolveToolSelection({ defaultTools: ["+find", "-bash"] }).initialActiveToolNames).toEqual([
			"read",
			"edit",
			"write",
			"find",
		]);
		expect(resolveToolSelection({ defaultTools: [] }).initialActiveToolNames).toEqual([]);
		const builtin = resolveToolSelection({ noTools: "builtin" });
		expect(builtin).toEqual({ initialActiveToolNames: [], usesDefaultTools: false });
		const none = resolveToolSelection({ noTools: "all" });
		expect(none.allowedToolNames).toEqual([]);
		const noneButGrep = resolveToolSelection({ noTools: "all", tools: parseToolsFlag("--tools", "+grep") });
		expect(noneButGrep.allowedToolNames).toEqual(["grep"]);
		expect(noneButGrep.initialActiveToolNames).toEqual(["grep"]);
	});
});

describe("pluggable operations", () => {
	it("reroute read, write, edit and ls to another backend", async () => {
		const files = new Map<string, string>([["/remote/notes.txt", "hello remote\n"]]);
		const read: ReadOperations = {
			access: async (path) => {
				if (!files.has(path)) throw new Error(`ENOENT: ${path}`);
			},
			readFile: async (path) => Buffer.from(files.get(path) ?? ""),
		};
		const write: WriteOperations = {
			mkdir: async () => {},
			writeFile: async (path, content) => {
				files.set(path, content);
			},
		};
		const edit: EditOperations = { ...read, writeFile: write.writeFile };
		const ls: LsOperations = {
			exists: (path) => path === "/remote",
			stat: (path) => ({ isDirectory: () => path === "/remote" }),
			readdir: () => [...files.keys()].map((path) => path.slice("/remote/".length)),
		};
		const cwd = tempDir();
		expect(textOf(await createReadTool("/remote", { operations: read }).execute("c", { path: "notes.txt" }))).toBe(
			"hello remote\n",
		);
		await createWriteTool("/remote", { operations: write }).execute("c", { path: "new.txt", content: "created" });
		await createEditTool("/remote", { operations: edit }).execute("c", {
			path: "new.txt",
			edits: [{ oldText: "created", newText: "edited" }],
		});
		expect(files.get("/remote/new.txt")).toBe("edited");
		expect(textOf(await createLsTool("/remote", { operations: ls }).execute("c", {}))).toBe("new.txt\nnotes.txt");
		expect(textOf(await createLsTool(cwd).execute("c", {}))).toBe("(empty directory)");
	});
});
