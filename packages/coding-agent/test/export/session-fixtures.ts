import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FileEntry } from "@tau/coding-agent";

/** A 2×2 red PNG. */
export const PNG_BASE64 =
	"iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DwnwGMgRQAH+4D/dJQfRoAAAAASUVORK5CYII=";

const usage = (input: number, output: number, cost: number) => ({
	input,
	output,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: input + output,
	cost: { input: cost / 2, output: cost / 2, cacheRead: 0, cacheWrite: 0, total: cost },
});

/** Builds session lines: each entry hangs under the previous one unless `parent` says otherwise. */
export class SessionBuilder {
	readonly entries: FileEntry[] = [];
	private last: string | null = null;
	private clock = Date.parse("2026-03-14T09:00:00.000Z");

	constructor(id = "0195f000-0000-7000-8000-000000000001") {
		this.entries.push({
			type: "session",
			version: 3,
			id,
			timestamp: new Date(this.clock).toISOString(),
			cwd: "/home/ana/src/app",
		} as FileEntry);
	}

	add(id: string, fields: Record<string, unknown>, parent: string | null = this.last): string {
		this.clock += 1000;
		this.entries.push({
			id,
			parentId: parent,
			timestamp: new Date(this.clock).toISOString(),
			...fields,
		} as FileEntry);
		this.last = id;
		return id;
	}

	message(id: string, message: Record<string, unknown>, parent?: string | null): string {
		return this.add(id, { type: "message", message: { timestamp: this.clock, ...message } }, parent);
	}

	user(id: string, content: unknown, parent?: string | null): string {
		return this.message(id, { role: "user", content }, parent);
	}

	assistant(id: string, content: unknown[], extra: Record<string, unknown> = {}, parent?: string | null): string {
		return this.message(
			id,
			{
				role: "assistant",
				content,
				api: "anthropic-messages",
				provider: "anthropic",
				model: "claude-sonnet-4-5",
				usage: usage(1200, 80, 0.0042),
				stopReason: content.some((block) => (block as { type: string }).type === "toolCall") ? "toolUse" : "stop",
				...extra,
			},
			parent,
		);
	}

	toolResult(
		id: string,
		toolCallId: string,
		toolName: string,
		text: string,
		extra: Record<string, unknown> = {},
	): string {
		return this.message(id, {
			role: "toolResult",
			toolCallId,
			toolName,
			content: [{ type: "text", text }],
			isError: false,
			...extra,
		});
	}

	write(dir = mkdtempSync(join(tmpdir(), "tau-export-"))): string {
		const file = join(dir, "session.jsonl");
		writeFileSync(file, this.entries.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
		return file;
	}
}

export const BASH_LINES = 40;

/**
 * A branched session with everything the viewer shows: thinking, tool calls with long coloured
 * output, an edit diff, an image, nested codemode calls, a compaction, a label, an error and a call
 * whose outcome is unknown. The main branch is where the session was; branch `b1` is the alternative.
 */
export function branchedSession(): SessionBuilder {
	const s = new SessionBuilder();
	s.add("a0000001", { type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });
	s.add("a0000002", { type: "thinking_level_change", thinkingLevel: "high" });
	s.message("a0000003", {
		role: "system",
		content: "You are a careful coding agent.",
		toolsAdded: [
			{ name: "read", description: "Read a file", parameters: { type: "object" } },
			{ name: "bash", description: "Run a shell command", parameters: { type: "object" } },
		],
	});
	s.user("a0000004", [
		{ type: "text", text: "Fix the parser bug, see the screenshot" },
		{ type: "image", mimeType: "image/png", data: PNG_BASE64 },
	]);
	s.assistant("a0000005", [
		{ type: "thinking", thinking: "The parser drops the last token; read it first." },
		{ type: "toolCall", id: "call_read", name: "read", arguments: { path: "src/parser.ts" } },
	]);
	s.toolResult(
		"a0000006",
		"call_read",
		"read",
		"export function parse(input: string): string[] {\n\treturn input.split(' ');\n}\n",
	);
	s.assistant("a0000007", [{ type: "toolCall", id: "call_bash", name: "bash", arguments: { command: "npm test" } }]);
	const output = Array.from({ length: BASH_LINES }, (_, index) =>
		index === BASH_LINES - 1 ? "\x1b[31mFAIL\x1b[0m parser.test.ts" : `\x1b[32mPASS\x1b[0m case ${index + 1}`,
	).join("\n");
	s.toolResult("a0000008", "call_bash", "bash", output, { durationMs: 2300 });
	s.assistant("a0000009", [
		{
			type: "toolCall",
			id: "call_edit",
			name: "edit",
			arguments: { path: "src/parser.ts", edits: [{ oldText: "split(' ')", newText: "split(/\\s+/)" }] },
		},
	]);
	s.toolResult("a000000a", "call_edit", "edit", "Edited src/parser.ts", {
		details: { diff: "-\treturn input.split(' ');\n+\treturn input.split(/\\s+/);" },
	});
	s.assistant("a000000b", [
		{ type: "toolCall", id: "call_code", name: "codemode", arguments: { code: "await read({ path: 'a.ts' })" } },
	]);
	s.toolResult("a000000c", "call_code", "codemode", "ran 2 calls", {
		nestedCalls: {
			calls: [
				{ id: "n1", name: "read", arguments: { path: "a.ts" }, status: "ok", durationMs: 4 },
				{ id: "n2", name: "bash", arguments: { command: "false" }, status: "error", error: "exit code 1" },
			],
			complete: true,
		},
	});
	const fixed = s.assistant("a000000d", [
		{
			type: "text",
			text: "Fixed the **parser**. The change:\n\n```ts\nconst words: string[] = input.split(/\\s+/);\n```\n\n| case | result |\n| --- | --- |\n| split | ok |\n\nSee [the docs](https://example.com/docs).",
		},
	]);
	// The alternative branch, started from the fixed parser.
	s.user("b0000001", "Instead, rewrite the parser from scratch", fixed);
	s.assistant("b0000002", [{ type: "text", text: "Rewrote the parser on this branch." }]);
	s.add("b0000003", { type: "branch_summary", fromId: "a0000010", summary: "The other branch **added tests**." });
	s.add("b0000004", { type: "custom_message", customType: "reminder", content: "Deploy after review", display: true });
	s.assistant("b0000005", [{ type: "text", text: "Starting the benchmark" }], {
		stopReason: "aborted",
		errorMessage: "Aborted by the user",
	});
	// The main branch continues.
	s.add(
		"a000000e",
		{
			type: "compaction",
			summary: "## Goal\nFix the parser\n\n## Progress\n- [x] split on whitespace",
			firstKeptEntryId: "a000000d",
			tokensBefore: 52000,
		},
		fixed,
	);
	s.user("a000000f", "Now add tests");
	s.assistant("a0000010", [{ type: "text", text: "Tests added for the whitespace case." }]);
	s.add("a0000011", { type: "label", targetId: "b0000001", label: "rewrite" });
	s.assistant("a0000012", [], { stopReason: "error", errorMessage: "429 rate limited by the provider" });
	s.assistant("a0000013", [
		{ type: "toolCall", id: "call_lost", name: "bash", arguments: { command: "make deploy" } },
	]);
	s.add("a0000014", {
		type: "custom",
		customType: "tau.tool-intent",
		data: { toolCallId: "call_lost", toolName: "bash", replay: "never" },
	});
	return s;
}

/** A linear session of `count` entries (user, assistant with a tool call, tool result, repeated). */
export function longSession(count: number): SessionBuilder {
	const s = new SessionBuilder("0195f000-0000-7000-8000-000000000002");
	for (let index = 0; s.entries.length - 1 < count; index++) {
		const id = (n: number) => (index * 3 + n).toString(16).padStart(8, "0");
		s.user(id(0), `Question ${index}: what does step ${index} do?`);
		if (s.entries.length - 1 >= count) break;
		s.assistant(id(1), [
			{ type: "text", text: `Step ${index} reads a file.` },
			{ type: "toolCall", id: `call_${index}`, name: "read", arguments: { path: `src/file${index}.ts` } },
		]);
		if (s.entries.length - 1 >= count) break;
		s.toolResult(id(2), `call_${index}`, "read", `// file ${index}\nexport const value${index} = ${index};\n`);
	}
	return s;
}

/** A line longer than any screen, without a space to break at. */
export const HUGE_LINE_CHARS = 200_000;

/**
 * A session written to attack its own export: markup, script and style breakers, script links,
 * terminal escape sequences (including an OSC 8 link to `javascript:`), a disguised image type and
 * hostile ids and labels. Opening its export must run nothing and keep the layout.
 */
export function hostileSession(): SessionBuilder {
	const s = new SessionBuilder();
	(s.entries[0] as { cwd: string }).cwd = `/tmp/</title><script>alert("cwd")</script>`;
	const breakers = `</script><script>window.__pwned = 1; alert("script")</script></style><style>body { display: none }</style><!-- <img src=x onerror="alert('img')">`;
	s.user("x0000001", `Hello ${breakers} and <iframe src="javascript:alert('frame')"></iframe>`);
	s.assistant("x0000002", [
		{ type: "thinking", thinking: `<script>alert("thinking")</script>` },
		{
			type: "text",
			text: [
				"Links: [click me](javascript:alert('md')) [data](data:text/html,<script>alert(1)</script>) <javascript:alert(2)>",
				'<img src="https://tracker.example/pixel.png" onerror="alert(\'raw\')">',
				"![remote image](https://tracker.example/image.png)",
				"```html\n</code></pre><script>alert('fence')</script>\n```",
				breakers,
			].join("\n\n"),
		},
		{
			type: "toolCall",
			id: `call"><script>alert('id')</script>`,
			name: `bash<script>alert('name')</script>`,
			arguments: { command: `echo '</script><script>alert("arg")</script>'` },
		},
		{ type: "toolCall", id: "call_plain", name: "read", arguments: { path: "notes.txt" } },
	]);
	const escapes = [
		"\x1b]8;;javascript:alert('osc')\x07a terminal link\x1b]8;;\x07",
		"\x1b]0;window title\x07\x1b[2J\x1b[H\x1b[38;2;255;0;0mred\x1b[0m \x1b[999999999mnumbers",
		"\x1b]52;c;Y2xpcGJvYXJk\x07clipboard \x07bell \x1bc reset \x1b[?1049h",
		"x".repeat(HUGE_LINE_CHARS),
	].join("\n");
	s.toolResult("x0000003", `call"><script>alert('id')</script>`, `bash<script>alert('name')</script>`, escapes, {
		content: [
			{ type: "text", text: escapes },
			{ type: "image", mimeType: 'image/svg+xml" onload="alert(1)', data: "PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+" },
			{ type: "image", mimeType: "image/png", data: `AAAA" onerror="alert('data')` },
		],
	});
	s.toolResult("x0000007", "call_plain", "read", "plain\x07 bell\x08 output\x00");
	s.add("x0000004", { type: "label", targetId: "x0000001", label: `<b onmouseover="alert('label')">label</b>` });
	s.add(`x"><script>alert('entry')</script>`, {
		type: "compaction",
		summary: `</style><script>alert("summary")</script>`,
		firstKeptEntryId: "x0000001",
		tokensBefore: 1000,
	});
	s.add("x0000006", { type: "session_info", name: `</title><script>alert("name")</script>` });
	s.user("x0000005", `Last words ${"y".repeat(HUGE_LINE_CHARS)}`);
	return s;
}

/** Markup a nested call's arguments carry; the viewer must show it as text and never run it. */
export const HOSTILE_CALL_ARGS = `{"path":"</li><img src=x onerror=\\"window.__pwned=1\\"><script>window.__pwned=2</script>"}`;

/**
 * A codemode run as the `codemode` tool records it (`details.calls`, docs/codemode.md): a script
 * that made three nested calls, the second of which failed, one with hostile arguments.
 */
export function codemodeSession(): SessionBuilder {
	const s = new SessionBuilder();
	s.user("c0000001", "Count the TODOs");
	const code = "const files = await glob({ pattern: '**/*.ts' });\nreturn files.length;";
	s.assistant("c0000002", [{ type: "toolCall", id: "call_code", name: "codemode", arguments: { code } }]);
	s.toolResult("c0000003", "call_code", "codemode", "42", {
		durationMs: 1900,
		details: {
			calls: [
				{ id: "n1", name: "glob", args: `{"pattern":"**/*.ts"}`, status: "ok", durationMs: 12 },
				{
					id: "n2",
					name: "bash",
					args: `{"command":"grep -c TODO"}`,
					status: "error",
					durationMs: 1500,
					error: "exit code 2\nsecond line",
				},
				{ id: "n3", name: "read", args: HOSTILE_CALL_ARGS, status: "ok", durationMs: 3 },
			],
		},
	});
	return s;
}
