import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage, fauxProvider } from "@tau/ai";
import { SessionManager } from "@tau/coding-agent";
import type { Bench } from "../../../scripts/bench/api.js";
import { createIsolatedSession, isolatedModelRuntime } from "../test/support/isolated-session.js";

/** An in-memory session with `turns` earlier user/assistant pairs, over the faux provider. */
async function sessionWithHistory(root: string, turns: number) {
	const cwd = join(root, `cwd-${turns}`);
	const agentDir = join(root, `agent-${turns}`);
	mkdirSync(cwd, { recursive: true });
	mkdirSync(agentDir, { recursive: true });
	const faux = fauxProvider();
	const modelRuntime = isolatedModelRuntime({ faux: faux.provider });
	const sessionManager = SessionManager.inMemory(cwd);
	for (let i = 0; i < turns; i++) {
		sessionManager.appendMessage({ role: "user", content: `question ${i} `.repeat(20), timestamp: Date.now() });
		sessionManager.appendMessage({
			...fauxAssistantMessage(`answer ${i} `.repeat(40)),
			provider: "faux",
			model: "faux-1",
		});
	}
	const { session } = await createIsolatedSession({
		cwd,
		agentDir,
		modelRuntime,
		model: faux.getModel(),
		settings: { compaction: { enabled: false } },
		sessionManager,
	});
	return { session, faux };
}

/**
 * One prompt round trip (pipeline, projection of the whole branch for the request, persistence,
 * settle) over the faux provider, on sessions with growing history.
 */
const bench: Bench = async (ctx) => {
	const root = mkdtempSync(join(tmpdir(), "tau-bench-session-"));
	try {
		for (const turns of [10, 1000]) {
			const { session, faux } = await sessionWithHistory(root, turns);
			await ctx.time(
				`agent-session: prompt round trip, ${turns} earlier turns`,
				async () => {
					faux.setResponses([fauxAssistantMessage("ok")]);
					await session.prompt("next");
				},
				{ iterations: 20, warmup: 2 },
			);
			session.dispose();
		}
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
};

export default bench;
