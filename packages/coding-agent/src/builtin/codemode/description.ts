import { type ScriptToolInfo, toolSample } from "./samples.js";

const INTRO = [
	"Run JavaScript that calls other tools. The input is raw JavaScript source (not JSON, no code fence), run as the body of an async function in a QuickJS sandbox: top-level `await` and `return` work; there is no Node.js, file system, network or timers.",
	"`await tools.<name>({...})` resolves to a string or, when the declaration says so, an object, and rejects when the tool fails. Object-returning tools may resolve on failure: check their fields. Calls still running when the script ends are cancelled.",
	'An optional first line sets options: `// @options: {"max_output_tokens": 10000, "timeout_ms": 60000}`.',
].join("\n");

function globalsSummary(models: boolean): string {
	const lines = [
		"Globals:",
		"- `text(value)` adds output; `console.log(...)` lines are collected at the end; `image(dataUrlOrBlock)` shows an image; `exit()` ends the script successfully; the returned value is appended to the output.",
		"- `store(key, value)` / `load(key)` keep small JSON state (IDs, cursors, summaries) across scripts in this session.",
		"- `ALL_TOOLS`, `searchTools(query, { limit?, namespace? })`, `describeTool(name)` and `describeNamespace(name)` find tools that are not listed below, such as MCP tools.",
	];
	if (models) {
		lines.push("- `models.*` runs classifier and image models; read tau's docs/codemode.md before using `models`.");
	}
	return lines.join("\n");
}

interface Section {
	text: string;
	cost: number;
	index: number;
}

interface Group {
	namespace?: { name: string; description?: string };
	sections: Section[];
	placed: Set<number>;
}

function section(tool: ScriptToolInfo, index: number): Section {
	const heading = tool.jsName === tool.name ? `### \`${tool.jsName}\`` : `### \`${tool.jsName}\` (\`${tool.name}\`)`;
	const text = `${heading}\n${toolSample(tool)}`;
	return { text, cost: Math.ceil(text.length / 4), index };
}

/**
 * Places sections by rounds: each group still in play places its cheapest remaining section if it
 * fits, else drops out; so every namespace is represented before any is complete.
 */
function placeSections(groups: Group[], budget: number | undefined): void {
	if (budget === undefined) {
		for (const group of groups) for (const s of group.sections) group.placed.add(s.index);
		return;
	}
	let remaining = budget;
	let active = groups.filter((g) => g.sections.length > 0);
	while (active.length > 0) {
		const next: Group[] = [];
		for (const group of active) {
			const candidates = group.sections.filter((s) => !group.placed.has(s.index));
			const cheapest = candidates.reduce<Section | undefined>(
				(best, s) => (!best || s.cost < best.cost ? s : best),
				undefined,
			);
			if (!cheapest || cheapest.cost > remaining) continue;
			group.placed.add(cheapest.index);
			remaining -= cheapest.cost;
			if (candidates.length > 1) next.push(group);
		}
		active = next;
	}
}

/** The `codemode` tool description (B.2): intro, globals, then the listed tools within the budget. */
export function codemodeDescription(
	listed: readonly ScriptToolInfo[],
	options: { inlineBudget?: number; models: boolean },
): string {
	const plain: Group = { sections: [], placed: new Set() };
	const byNamespace = new Map<string, Group>();
	listed.forEach((tool, index) => {
		if (!tool.namespace) {
			plain.sections.push(section(tool, index));
			return;
		}
		let group = byNamespace.get(tool.namespace.name);
		if (!group) {
			group = {
				namespace: {
					name: tool.namespace.name,
					...(tool.namespace.description ? { description: tool.namespace.description } : {}),
				},
				sections: [],
				placed: new Set(),
			};
			byNamespace.set(tool.namespace.name, group);
		}
		group.sections.push(section(tool, index));
	});
	const groups = [
		plain,
		...[...byNamespace.values()].sort((a, b) => a.namespace!.name.localeCompare(b.namespace!.name)),
	];
	placeSections(groups, options.inlineBudget);
	const parts = [INTRO, globalsSummary(options.models)];
	if (listed.length === 0) return parts.join("\n\n");
	const body: string[] = ["Nested tools:"];
	for (const group of groups) {
		const shown = group.sections.filter((s) => group.placed.has(s.index));
		if (group.namespace) {
			const mark =
				shown.length === 0
					? " (tools not listed)"
					: shown.length < group.sections.length
						? " (some tools not listed)"
						: "";
			body.push(`## ${group.namespace.name}${mark}`);
			if (group.namespace.description) body.push(group.namespace.description);
		}
		for (const s of shown) body.push(s.text);
	}
	return [...parts, body.join("\n\n")].join("\n\n");
}
