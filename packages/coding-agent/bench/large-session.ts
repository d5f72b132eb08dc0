// Large session files for the benchmarks that open one (the CLI's resume and the TUI's first frame).
import { writeFileSync } from "node:fs";

/** A session file with `entries` alternating user/assistant messages. */
export function writeLargeSession(path: string, cwd: string, entries: number): void {
	const lines = [
		JSON.stringify({ type: "session", version: 3, id: "bench-session", timestamp: new Date(0).toISOString(), cwd }),
	];
	let parent: string | null = null;
	for (let i = 0; i < entries; i++) {
		const id = i.toString(16).padStart(8, "0");
		const timestamp = 1_700_000_000_000 + i;
		const message =
			i % 2 === 0
				? { role: "user", content: `question ${i} ${"lorem ".repeat(20)}`, timestamp }
				: {
						role: "assistant",
						content: [{ type: "text", text: `answer ${i} ${"ipsum ".repeat(40)}` }],
						api: "anthropic-messages",
						provider: "mock",
						model: "mock-model",
						usage: {
							input: 10,
							output: 10,
							cacheRead: 0,
							cacheWrite: 0,
							totalTokens: 20,
							cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
						},
						stopReason: "stop",
						timestamp,
					};
		lines.push(
			JSON.stringify({
				type: "message",
				id,
				parentId: parent,
				timestamp: new Date(timestamp).toISOString(),
				message,
			}),
		);
		parent = id;
	}
	writeFileSync(path, `${lines.join("\n")}\n`);
}
