// Calls public coding-agent functions whose behaviour Pi defines and reduces the answers to plain,
// comparable JSON. Plain JavaScript on purpose: the same file runs in-process against tau (vitest) and
// in a Node 22 child against pi 1.6 (probe-runner.mjs), with the package namespace passed in.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Deterministic pseudo-random numbers (mulberry32), so generated inputs are the same on both sides. */
export function random(seed) {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const pick = (next, values) => values[Math.floor(next() * values.length)];

/** The answer of `fn`, or the error text it threw. */
async function outcome(fn) {
	try {
		return { value: await fn() };
	} catch (error) {
		return { threw: error instanceof Error ? error.message : String(error) };
	}
}

/** Replaces the probe's temp directory in any string so both sides print the same paths. */
function relativize(value, root) {
	return JSON.parse(
		JSON.stringify(value ?? null)
			.split(root)
			.join("<root>"),
	);
}

// ---- settings getters -------------------------------------------------------------------------

/** Getters that read state other than the settings (ids, files on disk) are not compared. */
const UNCOMPARED_GETTERS = new Set(["getOrCreateDeviceId", "getTrackingId", "getSettings", "getGlobalSettings"]);

/** Every zero-argument getter of a settings manager, by name. */
function getterNames(manager) {
	const names = new Set();
	for (
		let proto = Object.getPrototypeOf(manager);
		proto && proto !== Object.prototype;
		proto = Object.getPrototypeOf(proto)
	) {
		for (const name of Object.getOwnPropertyNames(proto)) {
			if (!/^(get|is)[A-Z]/.test(name) || UNCOMPARED_GETTERS.has(name)) continue;
			if (typeof manager[name] === "function" && manager[name].length === 0) names.add(name);
		}
	}
	return [...names].sort();
}

/** Values of the right type and range, per setting (what a user writes on purpose). */
const VALID_VALUES = {
	theme: ["dark", "light", "light/dark"],
	defaultProvider: ["anthropic", "openai"],
	defaultModel: ["claude-x", "gpt-y"],
	defaultThinkingLevel: ["off", "high", "max"],
	steeringMode: ["all", "one-at-a-time"],
	followUpMode: ["all", "one-at-a-time"],
	transport: ["sse", "websocket", "auto"],
	compaction: [{}, { enabled: false }, { reserveTokens: 1000, keepRecentTokens: 5 }],
	branchSummary: [{}, { skipPrompt: true }, { reserveTokens: 10 }],
	retry: [{}, { enabled: false }, { maxRetries: 1, baseDelayMs: 5 }, { provider: { maxRetries: 2, timeoutMs: 10 } }],
	hideThinkingBlock: [true, false],
	shellPath: ["/bin/sh"],
	shellCommandPrefix: ["set -e"],
	quietStartup: [true, false],
	collapseChangelog: [true, false],
	enableSkillCommands: [true, false],
	terminal: [{}, { showImages: false }, { clearOnShrink: true, imageWidthCells: 40 }],
	images: [{}, { autoResize: false }, { blockImages: true }],
	enabledModels: [[], ["a/*"]],
	defaultTools: [[], ["read"], ["+ls"]],
	doubleEscapeAction: ["fork", "tree", "none"],
	treeFilterMode: ["default", "all"],
	editorPaddingX: [0, 2],
	autocompleteMaxVisible: [5, 10],
	showHardwareCursor: [true, false],
	packages: [[], ["./pkg"]],
	extensions: [[], ["./a.ts"]],
	skills: [[], ["./skills"]],
	prompts: [[], ["./prompts"]],
	themes: [[], ["./themes"]],
	sessionDir: ["/tmp/sessions"],
	npmCommand: [["pnpm"], ["bun", "x"]],
	thinkingBudgets: [{}, { low: 100 }, { minimal: 1, high: 5 }],
	httpIdleTimeoutMs: [0, 1000, "2500", "disabled"],
	websocketConnectTimeoutMs: [500, "750", "disabled"],
	defaultProjectTrust: ["ask", "always", "never"],
	tuiMode: ["regular", "fullscreen"],
	outputPad: [0, 1],
	warnings: [{}, { anthropicExtraUsage: false }],
	markdown: [{}, { codeBlockIndent: "    " }],
	modelThinkingLevels: [{}, { "a/b": "high" }],
	cacheWarming: ["off", "idle"],
	showCacheMissNotices: [true, false],
	enableInstallTelemetry: [true, false],
	enableAnalytics: [true, false],
	externalEditor: ["vim"],
};

/**
 * Scalars a getter must reject: both programs throw, and the error text must be the same. (Values
 * of the wrong type elsewhere differ on purpose: tau falls back to the default, see
 * docs/pi-compatibility.md.)
 */
export const REJECTED_SETTINGS = [
	{ httpIdleTimeoutMs: "soon" },
	{ httpIdleTimeoutMs: -3 },
	{ websocketConnectTimeoutMs: "later" },
	{ websocketConnectTimeoutMs: -1 },
	{ compaction: { keepRecentTokens: "x" } },
	{ compaction: { reserveTokens: 1.5 } },
	{ compaction: { keepRecentTokens: -2 } },
	{ httpIdleTimeoutMs: "" },
	{ websocketConnectTimeoutMs: "  " },
];

/** `count` settings objects: the empty one, then random subsets of keys with valid values. */
export function generateSettings(seed, count) {
	const next = random(seed);
	const keys = Object.keys(VALID_VALUES);
	const all = [{}];
	while (all.length < count) {
		const settings = {};
		const size = 1 + Math.floor(next() * 6);
		for (let i = 0; i < size; i++) {
			const key = pick(next, keys);
			settings[key] = pick(next, VALID_VALUES[key]);
		}
		all.push(settings);
	}
	return all;
}

/** Each getter's answer (or error) for settings held in memory. */
export async function settingsGetters(api, settings) {
	const manager = api.SettingsManager.inMemory(structuredClone(settings));
	const answers = {};
	for (const name of getterNames(manager)) answers[name] = await outcome(() => manager[name]());
	return answers;
}

/** What loading unreadable settings files reports: the drained errors and the getters' fallbacks. */
export async function brokenSettingsFile(api, text) {
	const root = mkdtempSync(join(tmpdir(), "tau-probe-settings-"));
	const agentDir = join(root, "agent");
	mkdirSync(agentDir, { recursive: true });
	writeFileSync(join(agentDir, "settings.json"), text);
	const created = await outcome(() => {
		const manager = api.SettingsManager.create(root, agentDir);
		const errors = manager.drainErrors().map((error) => ({ scope: error.scope, message: error.error?.message }));
		return { errors, theme: manager.getTheme(), provider: manager.getDefaultProvider() };
	});
	return relativize(created, root);
}

// ---- session labels ---------------------------------------------------------------------------

const LABELS = ["", " ", "bookmark", "two words", undefined];

/** Labels set and cleared at random on a short session, read back through every public view. */
export async function sessionLabels(api, seed) {
	const next = random(seed);
	const manager = api.SessionManager.inMemory("/tmp/probe");
	const ids = [];
	for (let i = 0; i < 4; i++) {
		ids.push(manager.appendMessage({ role: "user", content: `question ${i}`, timestamp: i }));
	}
	const operations = [];
	for (let i = 0; i < 6; i++) {
		const target = Math.floor(next() * ids.length);
		const label = pick(next, LABELS);
		operations.push([target, label ?? null]);
		manager.appendLabelChange(ids[target], label);
	}
	const indexOf = new Map(ids.map((id, index) => [id, index]));
	const labels = ids.map((id) => manager.getLabel(id) ?? null);
	const tree = [];
	const visit = (nodes) => {
		for (const node of nodes) {
			if (indexOf.has(node.entry.id)) tree.push([indexOf.get(node.entry.id), node.label ?? null]);
			visit(node.children);
		}
	};
	visit(manager.getTree());
	const labelEntries = manager
		.getEntries()
		.filter((entry) => entry.type === "label")
		.map((entry) => [indexOf.get(entry.targetId), entry.label ?? null]);
	return { operations, labels, tree, labelEntries };
}

// ---- grep tool --------------------------------------------------------------------------------

/**
 * A file whose lines match a pattern now and then. One file: ripgrep visits the files of a
 * directory in no fixed order, and neither program sorts them.
 */
function writeSearchFile(next) {
	const root = mkdtempSync(join(tmpdir(), "tau-probe-grep-"));
	const lines = [];
	for (let line = 0; line < 40; line++) lines.push(next() < 0.35 ? `match ${line}` : `other ${line}`);
	writeFileSync(join(root, "file.txt"), `${lines.join("\n")}\n`);
	return root;
}

/** The grep tool's text and details for generated limits and context sizes. */
export async function grepTool(api, seed) {
	const next = random(seed);
	const root = writeSearchFile(next);
	const params = { pattern: "match", path: ".", limit: 1 + Math.floor(next() * 8), context: Math.floor(next() * 4) };
	const tool = api.createGrepTool(root);
	const result = await outcome(() => tool.execute("probe", params));
	return relativize({ params, result: result.threw ? result : reduceToolResult(result.value) }, root);
}

function reduceToolResult(result) {
	return {
		text: result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n"),
		details: result.details ?? null,
	};
}

// ---- edit tool --------------------------------------------------------------------------------

/** The edit tool's diff details for a generated file and edit (a long file, one or two changed spans). */
export async function editTool(api, seed) {
	const next = random(seed);
	const root = mkdtempSync(join(tmpdir(), "tau-probe-edit-"));
	const count = 5 + Math.floor(next() * 40);
	const lines = Array.from({ length: count }, (_, index) => `line ${index} ${index % 3 === 0 ? "alpha" : "beta"}`);
	writeFileSync(join(root, "file.txt"), `${lines.join("\n")}\n`);
	const edits = [];
	const first = Math.floor(next() * count);
	edits.push({ oldText: lines[first], newText: `${lines[first]} changed` });
	const second = Math.floor(next() * count);
	if (next() < 0.5 && Math.abs(second - first) > 1) edits.push({ oldText: lines[second], newText: "" });
	const tool = api.createEditTool(root);
	const result = await outcome(() => tool.execute("probe", { path: "file.txt", edits }));
	const after = readFileSync(join(root, "file.txt"), "utf8");
	return relativize({ edits, result: result.threw ? result : reduceToolResult(result.value), after }, root);
}

// ---- resource loading -------------------------------------------------------------------------

/** A project and agent dir holding skills (good and broken) and context files. */
function writeResources(next) {
	const root = mkdtempSync(join(tmpdir(), "tau-probe-resources-"));
	const cwd = join(root, "project");
	const agentDir = join(root, "agent");
	const skill = (dir, name, frontmatter) => {
		mkdirSync(join(dir, name), { recursive: true });
		writeFileSync(join(dir, name, "SKILL.md"), `${frontmatter}\n# ${name}\nBody of ${name}.\n`);
	};
	const userSkills = join(agentDir, "skills");
	mkdirSync(userSkills, { recursive: true });
	skill(userSkills, "good-skill", "---\nname: good-skill\ndescription: Does a good thing\n---");
	if (next() < 0.5) skill(userSkills, "no-description", "---\nname: no-description\n---");
	if (next() < 0.5) skill(userSkills, "Bad_Name", "---\nname: Bad_Name\ndescription: invalid name\n---");
	if (next() < 0.5) skill(userSkills, "mismatch", "---\nname: other-name\ndescription: name differs from dir\n---");
	mkdirSync(cwd, { recursive: true });
	writeFileSync(join(agentDir, "AGENTS.md"), "# user rules\n");
	if (next() < 0.5) writeFileSync(join(cwd, "AGENTS.md"), "# project rules\n");
	if (next() < 0.5) writeFileSync(join(cwd, "CLAUDE.md"), "# claude rules\n");
	return { root, cwd, agentDir };
}

function reduceSkills(result) {
	return {
		skills: result.skills
			.map((skill) => ({ ...skill, sourceInfo: skill.sourceInfo ?? null }))
			.sort((a, b) => (a.name < b.name ? -1 : 1)),
		diagnostics: result.diagnostics,
	};
}

/** `loadSkills` and `loadProjectContextFiles` on a generated layout. */
export async function resourceLoading(api, seed) {
	const next = random(seed);
	const { root, cwd, agentDir } = writeResources(next);
	const skills = await outcome(() =>
		reduceSkills(api.loadSkills({ cwd, agentDir, skillPaths: [], includeDefaults: true })),
	);
	const contextFiles = await outcome(() => api.loadProjectContextFiles({ cwd, agentDir }));
	return relativize({ skills, contextFiles }, root);
}

/** What a resource loader reports for a project with prompt templates, themes, skills and context files. */
export async function resourceLoader(api, seed) {
	const next = random(seed);
	const { root, cwd, agentDir } = writeResources(next);
	const prompts = join(agentDir, "prompts");
	mkdirSync(prompts, { recursive: true });
	writeFileSync(join(prompts, "review.md"), "---\ndescription: Review the change\n---\nReview $1 carefully.\n");
	if (next() < 0.5) writeFileSync(join(prompts, "plain.md"), "Just a prompt about $ARGUMENTS\n");
	const themes = join(agentDir, "themes");
	mkdirSync(themes, { recursive: true });
	if (next() < 0.5) writeFileSync(join(themes, "broken.json"), "{ not json");
	const settingsManager = api.SettingsManager.inMemory({});
	const loader = new api.DefaultResourceLoader({ cwd, agentDir, settingsManager, noExtensions: true });
	await loader.reload();
	const themeResult = loader.getThemes();
	const answer = {
		prompts: loader.getPrompts(),
		themes: { names: themeResult.themes.map((theme) => theme.name).sort(), diagnostics: themeResult.diagnostics },
		skills: reduceSkills(loader.getSkills()),
		agentsFiles: loader.getAgentsFiles(),
	};
	return relativize(answer, root);
}

/** Every probe by name: `(api, input) => Promise<JSON>`. */
// ---- a long session opened again -------------------------------------------------------------

const USAGE = {
	input: 10,
	output: 5,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 15,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** Replaces the body of the message line holding `text` with one cut short that keeps the line's shape. */
function cutBody(file, text) {
	const lines = readFileSync(file, "utf8").split("\n");
	const index = lines.findIndex((line) => line.includes(`"content":"${text}"`));
	if (index < 0) return;
	const entry = JSON.parse(lines[index]);
	const parent = entry.parentId === null ? "null" : `"${entry.parentId}"`;
	lines[index] =
		`{"type":"message","id":"${entry.id}","parentId":${parent},"timestamp":"${entry.timestamp}",` +
		`"message":{"role":"user","content":"cut short}}`;
	writeFileSync(file, lines.join("\n"));
}

/**
 * A session of about 150 generated entries (questions, answers, tool calls and results, labels, moves
 * of the leaf) with two message bodies cut short, one far back and one 100 entries from the end, opened
 * again (tau: with bodies read on first use, then the rest): what the file holds, by append order.
 */
export async function longSessionReopen(api, seed) {
	const next = random(seed);
	const root = mkdtempSync(join(tmpdir(), "probe-long-"));
	const cwd = join(root, "project");
	const sessions = join(root, "sessions");
	mkdirSync(cwd);
	const writer = api.SessionManager.create(cwd, sessions);
	const ids = [];
	const note = (id) => ids.push(id);
	for (let i = 0; ids.length < 150; i++) {
		const roll = next();
		if (roll < 0.05 && ids.length > 4) writer.branch(ids[Math.floor(next() * ids.length)]);
		else if (roll < 0.1 && ids.length > 0)
			note(writer.appendLabelChange(ids[Math.floor(next() * ids.length)], `mark ${i}`));
		note(writer.appendMessage({ role: "user", content: `question ${i}`, timestamp: i }));
		if (next() < 0.3) {
			const call = { type: "toolCall", id: `call-${i}`, name: "read", arguments: { path: `f${i}` } };
			note(
				writer.appendMessage({
					role: "assistant",
					content: [call],
					api: "faux",
					provider: "faux",
					model: "faux-1",
					usage: USAGE,
					stopReason: "toolUse",
					timestamp: i,
				}),
			);
			note(
				writer.appendMessage({
					role: "toolResult",
					toolCallId: call.id,
					toolName: "read",
					content: [{ type: "text", text: `contents ${i}` }],
					isError: false,
					timestamp: i,
				}),
			);
		}
		note(
			writer.appendMessage({
				role: "assistant",
				content: [{ type: "text", text: `answer ${i}` }],
				api: "faux",
				provider: "faux",
				model: "faux-1",
				usage: USAGE,
				stopReason: "stop",
				timestamp: i,
			}),
		);
	}
	const file = writer.getSessionFile();
	const written = writer.getEntries().length;
	writer.dispose?.();
	const contents = readFileSync(file, "utf8").split("\n");
	const questionAt = (fromEnd) =>
		contents.slice(0, -fromEnd).findLast((line) => line.includes('"content":"question '));
	for (const line of [contents.find((l) => l.includes('"content":"question 10"')), questionAt(100)]) {
		if (line) cutBody(file, JSON.parse(line).message.content);
	}
	const reader = api.SessionManager.open(file, sessions, undefined, { deferBodies: true });
	reader.readDeferredBodies?.();
	const indexOf = new Map(ids.map((id, index) => [id, index]));
	const at = (id) => (id === null || id === undefined ? null : (indexOf.get(id) ?? "?"));
	const textOf = (message) =>
		typeof message.content === "string"
			? message.content
			: (message.content ?? []).map((part) => part.text ?? part.id ?? part.type).join("|");
	const tree = [];
	const visit = (nodes, parent) => {
		for (const node of nodes) {
			tree.push([at(node.entry.id), parent, node.label ?? null]);
			visit(node.children, at(node.entry.id));
		}
	};
	visit(reader.getTree(), null);
	const answer = {
		leaf: at(reader.getLeafId()),
		branch: reader.getBranch().map((entry) => at(entry.id)),
		context: reader.buildSessionContext().messages.map((message) => [message.role, textOf(message)]),
		tree,
		written,
		entries: reader.getEntries().length,
	};
	reader.dispose?.();
	return answer;
}

export const PROBES = {
	settingsGetters,
	brokenSettingsFile,
	sessionLabels,
	grepTool,
	editTool,
	resourceLoading,
	resourceLoader,
	longSessionReopen,
};
