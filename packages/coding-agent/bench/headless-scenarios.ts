// The headless hot paths issue 22 measures, as scripted runs against the mock LLM server: shared by
// the compare benchmark (compare.bench.ts) and the CPU profiles (profile-paths.ts).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedReply } from "@tau/testkit";

/** One path: the CLI arguments and the replies the mock server gives one run. */
export interface Scenario {
	name: string;
	args: readonly string[];
	/** How many runs the compare benchmark takes per contender. */
	runs: number;
	/** Replies one run consumes, queued before each run. */
	replies: () => ScriptedReply[];
	/** Only these contender labels run it (default: all). */
	only?: (label: string) => boolean;
	setup?: (project: string) => void;
}

const toolLoop = (): ScriptedReply[] => [
	...Array.from({ length: 20 }, (_, i) => ({
		toolCalls: [{ id: `call_${i}`, name: "read", arguments: { path: "file.txt" } }],
		stopReason: "toolUse" as const,
	})),
	{ text: "done" },
];

const stream = (tokens: number) => (): ScriptedReply[] => [{ text: { tokens } }];

const writeArgument = (bytes: number) => (): ScriptedReply[] => [
	{
		toolCalls: [
			{ id: "w1", name: "write", arguments: { path: "out.txt", content: "abcdefghij".repeat(bytes / 10) } },
		],
	},
	{ text: "done" },
];

/** The paths, cheapest first; a name is also the row name of the compare benchmark. */
export const SCENARIOS: Scenario[] = [
	{ name: "--version", args: ["--version"], runs: 10, replies: () => [] },
	{ name: '-p "hi", session written', args: ["-p", "hi"], runs: 10, replies: () => [{ text: "pong" }] },
	{
		name: "20 tool calls + answer (json)",
		args: ["--mode", "json", "go"],
		runs: 5,
		replies: toolLoop,
		setup: (project) => writeFileSync(join(project, "file.txt"), "hello\n"),
	},
	...[50_000, 200_000, 800_000].map((tokens) => ({
		name: `${tokens / 1000}k-token stream (json)`,
		args: ["--mode", "json", "stream"],
		runs: tokens > 200_000 ? 2 : 3,
		replies: stream(tokens),
	})),
	...[100_000, 500_000, 2_000_000].map((bytes) => ({
		name: `${bytes >= 1e6 ? `${bytes / 1e6} MB` : `${bytes / 1000} KB`} write argument in deltas (json)`,
		args: ["--mode", "json", "write it"],
		runs: bytes > 500_000 ? 2 : 3,
		replies: writeArgument(bytes),
	})),
];
