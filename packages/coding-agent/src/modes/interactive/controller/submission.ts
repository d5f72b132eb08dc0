import type { AgentSession } from "../../../core/agent-session/agent-session.js";
import type { NoticeKind } from "../components/chat-notice.js";

/** What the submission pipeline needs from the coordinator. */
export interface SubmissionHost {
	readonly session: AgentSession;
	getEditorText(): string;
	setEditorText(text: string): void;
	addToHistory(text: string): void;
	/** Runs a built-in slash command if `text` is one; returns whether it was. */
	runBuiltin(text: string): boolean;
	/** Starts a `!` command (the host warns when one is already running). */
	runShell(command: string, excludeFromContext: boolean, originalText: string): void;
	/** The main loop: an idle prompt, errors shown in the chat. */
	prompt(text: string): void;
	/** A session that cannot take messages (another process holds it) explains itself; true then. */
	refuseWhenReadOnly(): boolean;
	notify(kind: NoticeKind, message: string): void;
	refreshPending(): void;
}

type Delivery = "steer" | "followUp";

/** The editor submission pipeline of docs/design/interactive.md#submission-and-keys. */
export class SubmissionPipeline {
	/** Texts typed during a compaction, sent when it ends. */
	private compactionQueue: { text: string; delivery: Delivery }[] = [];

	constructor(private readonly host: SubmissionHost) {}

	get queuedForCompaction(): readonly string[] {
		return this.compactionQueue.map((item) => item.text);
	}

	/** Enter. */
	submit(rawText: string): void {
		this.deliver(rawText.trim(), "steer", true);
	}

	/** `app.message.followUp`: like Enter when idle, a follow-up while streaming. */
	followUp(rawText: string): void {
		this.deliver(rawText.trim(), "followUp", false);
	}

	private deliver(text: string, delivery: Delivery, builtinsAndShell: boolean): void {
		const { host } = this;
		const session = host.session;
		if (text === "") return;
		if (builtinsAndShell || !session.isStreaming) {
			if (host.runBuiltin(text)) {
				host.setEditorText("");
				return;
			}
			const shell = /^!(!?)(.*)$/s.exec(text);
			if (shell && shell[2]!.trim() !== "") {
				host.setEditorText("");
				host.runShell(shell[2]!.trim(), shell[1] === "!", text);
				return;
			}
		}
		if (session.isCompacting) {
			host.setEditorText("");
			if (this.isExtensionCommand(text)) {
				void this.send(text, delivery);
				return;
			}
			this.compactionQueue.push({ text, delivery });
			host.notify("info", "Queued message for after compaction");
			host.refreshPending();
			return;
		}
		// Nothing typed is lost: the text goes back into the editor while the session cannot take it.
		// Extension commands still run: they decide for themselves what they write.
		if (!this.isExtensionCommand(text) && host.refuseWhenReadOnly()) {
			host.setEditorText(text);
			return;
		}
		host.addToHistory(text);
		host.setEditorText("");
		if (session.isStreaming) {
			void this.send(text, delivery).finally(() => host.refreshPending());
			return;
		}
		host.prompt(text);
	}

	private isExtensionCommand(text: string): boolean {
		const name = /^\/(\S+)/.exec(text)?.[1];
		return (
			name !== undefined && this.host.session.extensionRunner.getCommands().some((c) => c.invocationName === name)
		);
	}

	private async send(text: string, delivery: Delivery): Promise<void> {
		try {
			await this.host.session.prompt(text, { streamingBehavior: delivery });
		} catch (error) {
			this.host.notify("error", (error as Error).message);
		}
	}

	/** After a compaction: send what was typed meanwhile; on failure put it back. */
	async flushCompactionQueue(): Promise<void> {
		if (this.compactionQueue.length === 0) return;
		// `compaction_end` is emitted before the session clears its compacting state; let that finish.
		await new Promise<void>((resolve) => setImmediate(resolve));
		const queued = this.compactionQueue;
		this.compactionQueue = [];
		this.host.refreshPending();
		try {
			for (const item of queued) await this.host.session.prompt(item.text, { streamingBehavior: item.delivery });
		} catch (error) {
			this.compactionQueue = [...queued, ...this.compactionQueue];
			this.host.refreshPending();
			this.host.notify("error", (error as Error).message);
		}
	}

	/**
	 * `app.message.dequeue` (and Escape while streaming): queued steering and follow-up texts go back
	 * into the editor before the current text, separated by blank lines.
	 */
	restoreQueued(): number {
		const cleared = this.host.session.clearQueue();
		const local = this.compactionQueue.map((item) => item.text);
		this.compactionQueue = [];
		const texts = [...cleared.steering, ...cleared.followUp, ...local];
		if (texts.length > 0) {
			const current = this.host.getEditorText();
			this.host.setEditorText([...texts, current].filter((part) => part.trim() !== "").join("\n\n"));
		}
		this.host.refreshPending();
		return texts.length;
	}
}
