import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MockLlmServer, MockToolCall } from "@tau/testkit";
import { describe, expect, it } from "vitest";
import { cliBuilt, mockServer, runCli, runPi, type Sandbox, sandbox, writeMockModels } from "../e2e/harness.js";
import { PI_MISSING, PI_PACKAGE_DIR, piInstalled } from "../support/pi-reference.js";

/**
 * Pi 1.6's example extensions' tools, called by the same scripted model in `pi -p` and `tau -p`: the
 * model sees the same tools and gets the same results, and both print the same (docs/pi-compatibility.md).
 */

interface ToolCase {
	example: string;
	/** One model turn per entry, each calling these tools; a final turn answers "done". */
	turns: MockToolCall[][];
	/** The `-p` messages, in order (default: one "go"); a message may run one of the example's commands. */
	prompts?: string[];
	/** The tool ends the run with its result (pi's `terminate`), so the model is not asked again. */
	terminates?: true;
}

const NOTES = "first line\nsecond line\n";

const CASES: ToolCase[] = [
	{ example: "hello.ts", turns: [[{ id: "call_1", name: "hello", arguments: { name: "World" } }]] },
	{
		example: "todo.ts",
		turns: [
			[{ id: "call_1", name: "todo", arguments: { action: "add", text: "buy milk" } }],
			[{ id: "call_2", name: "todo", arguments: { action: "add", text: "walk the dog" } }],
			[{ id: "call_3", name: "todo", arguments: { action: "toggle", id: 1 } }],
			[{ id: "call_4", name: "todo", arguments: { action: "list" } }],
			[{ id: "call_5", name: "todo", arguments: { action: "toggle", id: 9 } }],
		],
	},
	{
		example: "structured-output.ts",
		turns: [
			[
				{
					id: "call_1",
					name: "structured_output",
					arguments: { headline: "Done", summary: "All good.", actionItems: ["ship it"] },
				},
			],
		],
		terminates: true,
	},
	{ example: "dynamic-tools.ts", turns: [[{ id: "call_1", name: "echo_session", arguments: { message: "hi" } }]] },
	{
		example: "dynamic-tools.ts",
		prompts: ["/add-echo-tool my_echo", "go"],
		turns: [[{ id: "call_1", name: "my_echo", arguments: { message: "hi" } }]],
	},
	{ example: "tool-override.ts", turns: [[{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }]] },
	{
		example: "built-in-tool-renderer.ts",
		turns: [[{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }]],
	},
	{
		example: "bash-spawn-hook.ts",
		turns: [[{ id: "call_1", name: "bash", arguments: { command: 'echo "hook=$PI_SPAWN_HOOK"' } }]],
	},
	{ example: "truncated-tool.ts", turns: [[{ id: "call_1", name: "rg", arguments: { pattern: "second" } }]] },
	{
		example: "question.ts",
		turns: [[{ id: "call_1", name: "question", arguments: { question: "Which?", options: [{ label: "A" }] } }]],
	},
	{
		example: "questionnaire.ts",
		turns: [
			[
				{
					id: "call_1",
					name: "questionnaire",
					arguments: { questions: [{ id: "q", prompt: "Which?", options: [{ value: "a", label: "A" }] }] },
				},
			],
		],
	},
];

interface AnthropicBody {
	tools?: { name: string }[];
	messages: { role: string; content: string | { type: string; content?: unknown; is_error?: boolean }[] }[];
}

/** What the model saw: the tool names it was offered and the conversation it was last sent. */
function modelView(server: MockLlmServer, home: string) {
	const bodies = server.requests.map((request) => request.body as AnthropicBody);
	const last = bodies.at(-1);
	const messages = last?.messages ?? [];
	const results = messages.flatMap((message) =>
		typeof message.content === "string" ? [] : message.content.filter((block) => block.type === "tool_result"),
	);
	return {
		requests: bodies.length,
		tools: (bodies.at(-1)?.tools ?? []).map((tool) => tool.name).sort(),
		messages: JSON.parse(JSON.stringify(messages).replaceAll(home, "<HOME>")) as unknown,
		results: results.length,
	};
}

async function run(harness: "pi" | "tau", testCase: ToolCase) {
	const box: Sandbox = sandbox();
	const server = await mockServer();
	writeMockModels(box, server);
	writeFileSync(join(box.project, "notes.txt"), NOTES);
	// bash-spawn-hook sources ~/.profile; a missing one puts an error on stderr, racing stdout in the result.
	writeFileSync(join(box.home, ".profile"), "");
	server.enqueue(...testCase.turns.map((toolCalls) => ({ toolCalls })), { text: "done" });
	const example = join(PI_PACKAGE_DIR, "examples", "extensions", testCase.example);
	const args = ["--no-session", "-e", example, "-p", ...(testCase.prompts ?? ["go"])];
	const output = harness === "pi" ? await runPi(box, args) : await runCli(box, args);
	return { code: output.code, stdout: output.stdout.replaceAll(box.home, "<HOME>"), ...modelView(server, box.home) };
}

describe.skipIf(!piInstalled || !cliBuilt)(
	`pi 1.6 example extensions' tools in tau -p (${piInstalled ? "installed pi" : PI_MISSING})`,
	() => {
		for (const testCase of CASES) {
			const prompts = testCase.prompts ? ` after ${testCase.prompts.join(", ")}` : "";
			it(`${testCase.example}${prompts}: same tools offered, same conversation, same output`, async () => {
				const [pi, tau] = await Promise.all([run("pi", testCase), run("tau", testCase)]);
				// The last request carries every result the model was sent back.
				const answered = testCase.terminates ? testCase.turns.slice(0, -1) : testCase.turns;
				expect(pi).toMatchObject({ code: 0, requests: answered.length + 1 });
				expect(pi.results).toBe(answered.flat().length);
				expect(tau).toEqual(pi);
			}, 60_000);
		}
	},
);
