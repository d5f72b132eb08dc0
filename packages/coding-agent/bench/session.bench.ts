import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@tau/coding-agent";
import type { Bench } from "../../../scripts/bench/api.js";

const usage = {
	input: 1200,
	output: 80,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 1280,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** Writes a linear session of `count` alternating user/assistant entries (about 400 bytes each). */
function writeSession(dir: string, count: number): string {
	const path = join(dir, `session-${count}.jsonl`);
	const lines = [
		JSON.stringify({
			type: "session",
			version: 3,
			id: `bench-${count}`,
			timestamp: new Date(0).toISOString(),
			cwd: dir,
		}),
	];
	let parentId: string | null = null;
	for (let i = 0; i < count; i++) {
		const id = i.toString(16).padStart(8, "0");
		const timestamp = new Date(i * 1000).toISOString();
		const message =
			i % 2 === 0
				? {
						role: "user",
						content: `Request ${i}: please look at src/module-${i}.ts and explain the function.`,
						timestamp: i,
					}
				: {
						role: "assistant",
						content: [
							{
								type: "text",
								text: `Answer ${i}: the function parses input, validates it and returns a result.`,
							},
						],
						api: "faux",
						provider: "faux",
						model: "faux-1",
						usage,
						stopReason: "stop",
						timestamp: i,
					};
		lines.push(JSON.stringify({ type: "message", id, parentId, timestamp, message }));
		parentId = id;
	}
	writeFileSync(path, `${lines.join("\n")}\n`);
	return path;
}

const bench: Bench = async (ctx) => {
	const dir = mkdtempSync(join(tmpdir(), "tau-session-bench-"));
	try {
		for (const count of [5_000, 50_000]) {
			const path = writeSession(dir, count);
			await ctx.time(
				`open ${count.toLocaleString("en-US")}-entry session + build context`,
				() => {
					const manager = SessionManager.open(path);
					manager.buildSessionContext();
					manager.dispose();
				},
				{ iterations: count > 10_000 ? 5 : 20, warmup: 2 },
			);
			// The open a resume makes before its first frame: bodies outside the last 64 lines unread.
			await ctx.time(
				`open ${count.toLocaleString("en-US")}-entry session, bodies deferred`,
				() => {
					SessionManager.open(path, undefined, undefined, { deferBodies: true }).dispose();
				},
				{ iterations: count > 10_000 ? 5 : 20, warmup: 2 },
			);
		}
		let run = 0;
		await ctx.time(
			"append 10,000 entries (fsync off)",
			() => {
				const manager = SessionManager.create(dir, join(dir, `appends-${run++}`));
				for (let i = 0; i < 10_000; i++) {
					manager.appendMessage({ role: "user", content: `message ${i} with a little bit of text`, timestamp: i });
				}
				manager.dispose();
			},
			{ iterations: 5, warmup: 1 },
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
};

export default bench;
