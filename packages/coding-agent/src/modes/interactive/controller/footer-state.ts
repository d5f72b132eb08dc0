import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AgentSession } from "../../../core/agent-session/agent-session.js";
import type { SessionStats } from "../../../core/agent-session/session-stats.js";
import type { ContextUsage } from "../../../core/extensions/index.js";
import type { FooterState } from "../components/footer.js";

/** The `.git/HEAD` file of `cwd`'s repository, if any. */
export function findGitHead(cwd: string): string | undefined {
	for (let dir = cwd; ; dir = dirname(dir)) {
		const head = join(dir, ".git", "HEAD");
		if (existsSync(head)) return head;
		if (dirname(dir) === dir) return undefined;
	}
}

/** The branch checked out in `cwd`'s repository (short commit when detached), if any. */
export function readGitBranch(cwd: string): string | undefined {
	const head = findGitHead(cwd);
	if (!head) return undefined;
	try {
		const text = readFileSync(head, "utf8").trim();
		const ref = /^ref: refs\/heads\/(.+)$/.exec(text);
		return ref ? ref[1] : text.slice(0, 7);
	} catch {
		return undefined;
	}
}

/** Cache hit rate of the most recent assistant message, when it used the cache at all. */
function latestCacheHit(session: AgentSession): number | undefined {
	// Read once: each read of `session.messages` copies the projection.
	const messages = session.messages;
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i]!;
		if (message.role !== "assistant") continue;
		const { input, cacheRead, cacheWrite } = message.usage;
		if (cacheRead + cacheWrite === 0) return undefined;
		const prompt = input + cacheRead + cacheWrite;
		return prompt === 0 ? undefined : (cacheRead / prompt) * 100;
	}
	return undefined;
}

/**
 * Whether the current model's provider is signed in with a subscription (an OAuth login), for the
 * footer's ` (sub)`. The credential store is asynchronous, so the answer arrives through `changed`;
 * it is asked again when the provider changes or when the footer refreshes while the session is idle
 * (after /login or /logout), never during a run.
 */
export class SubscriptionProbe {
	private provider: string | undefined;
	private value = false;
	private asking = false;

	constructor(private readonly changed: () => void) {}

	current(session: AgentSession): boolean {
		const model = session.model;
		if (model?.provider !== this.provider) {
			this.provider = model?.provider;
			this.value = false;
		} else if (!session.isIdle || this.asking) return this.value;
		if (!model) return this.value;
		this.asking = true;
		const provider = model.provider;
		void session.modelRuntime.credentials.read(provider).then(
			(credential) => {
				const oauth = credential?.type === "oauth";
				this.asking = false;
				if (this.provider !== provider || oauth === this.value) return;
				this.value = oauth;
				this.changed();
			},
			() => {
				this.asking = false;
			},
		);
		return this.value;
	}
}

/**
 * The session's totals and context usage walk every entry, while the footer refreshes on every
 * streamed event: they are recomputed only when an entry was added, the leaf moved or the model changed.
 * A long session shows them once it has opened, right after its first frame (`AgentSession.isOpening`).
 */
export class SessionTotals {
	private last:
		| {
				session: AgentSession;
				entries: number;
				leaf: string | null;
				model: unknown;
				stats: SessionStats | undefined;
				usage: ContextUsage | undefined;
		  }
		| undefined;

	of(session: AgentSession): { stats: SessionStats | undefined; usage: ContextUsage | undefined } {
		const manager = session.sessionManager;
		const entries = manager.getEntryCount();
		const leaf = manager.getLeafId();
		const model = session.model;
		const last = this.last;
		const opened = !session.isOpening;
		if (
			last &&
			last.session === session &&
			last.entries === entries &&
			last.leaf === leaf &&
			last.model === model &&
			(last.stats !== undefined) === opened
		)
			return last;
		const stats = opened ? session.getSessionStats() : undefined;
		this.last = { session, entries, leaf, model, stats, usage: stats?.contextUsage };
		return this.last;
	}
}

const NO_TOKENS = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

export function footerStateOf(
	session: AgentSession,
	totals: SessionTotals,
	extras: {
		gitBranch: string | undefined;
		home: string | undefined;
		statuses: ReadonlyMap<string, string>;
		subscription: boolean;
	},
): FooterState {
	const { stats, usage } = totals.of(session);
	const model = session.model;
	const providers = new Set(session.modelRuntime.getAvailableSnapshot().map((candidate) => candidate.provider));
	const routed = session.routedModel;
	return {
		cwd: session.cwd,
		home: extras.home,
		gitBranch: extras.gitBranch,
		sessionName: session.sessionName,
		tokens: stats?.tokens ?? NO_TOKENS,
		cacheHitPercent: stats ? latestCacheHit(session) : undefined,
		cost: stats?.cost ?? 0,
		subscription: extras.subscription,
		context: usage ? { percent: usage.percent, contextWindow: usage.contextWindow } : undefined,
		autoCompaction: session.autoCompactionEnabled,
		modelId: model?.id,
		provider: model?.provider,
		reasoning: model?.reasoning === true,
		thinkingLevel: session.thinkingLevel,
		...(routed
			? {
					routed: {
						modelId: routed.model.id,
						...(routed.thinkingLevel ? { thinkingLevel: routed.thinkingLevel } : {}),
					},
				}
			: {}),
		multipleProviders: providers.size > 1,
		statuses: extras.statuses,
	};
}
