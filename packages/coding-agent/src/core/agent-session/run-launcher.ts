import type { AgentMessage } from "@tau/agent";
import type { AssistantMessage } from "@tau/ai";
import type { SettingsManager } from "../../config/index.js";
import type { CustomMessage, SessionManager } from "../session/index.js";
import type { ModelSelection } from "./model-selection.js";
import type { SessionPersistence } from "./persistence.js";
import type { PromptState } from "./prompt-state.js";
import { type PostRunHost, runToSettled } from "./run-loop.js";
import { beforeAgentStartInput, type RunInput, startingMessages, withNormalizedImages } from "./run-preparation.js";
import { replaySafeCalls } from "./tool-call-repair.js";
import type { SessionToolLoadout } from "./tool-loadout.js";
import type { ToolRegistry } from "./tool-registry.js";
import type { PromptOptions } from "./types.js";
import type { UserBash } from "./user-bash.js";

/** What the launcher needs beyond the post-run loop's host (it supplies `endRun` itself). */
export interface RunLauncherHost extends Omit<PostRunHost, "endRun"> {
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	readonly persistence: SessionPersistence;
	readonly tools: ToolRegistry;
	readonly prompts: PromptState;
	readonly loadout: SessionToolLoadout;
	readonly selection: ModelSelection;
	readonly userBash: UserBash;
}

/**
 * Starts runs (steps 9–12 of the prompt pipeline, then the post-run loop) and owns what waits on
 * them: custom messages held for the next turn or until the run ends, and work deferred while
 * `agent_settled` handlers are dispatched.
 */
export class RunLauncher {
	private runPromise: Promise<void> | undefined;
	private readonly deferredAfterSettle: (() => Promise<void>)[] = [];
	private readonly pendingNextTurn: CustomMessage[] = [];
	private readonly pendingCustom: CustomMessage[] = [];
	private replayChecked = false;

	constructor(private readonly host: RunLauncherHost) {}

	/** Runs `task` once the `agent_settled` dispatch in progress has finished. */
	deferUntilSettled(task: () => Promise<void>): void {
		this.deferredAfterSettle.push(task);
	}

	async waitForIdle(): Promise<void> {
		while (this.runPromise) await this.runPromise;
	}

	/** `sendCustomMessage` delivery: next turn, into the running loop, a new run, or appended while idle. */
	async deliverCustom(
		message: CustomMessage,
		options: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" },
		retry: () => Promise<void>,
	): Promise<void> {
		const { agent, state } = this.host;
		if (options.deliverAs === "nextTurn") {
			this.pendingNextTurn.push(message);
			return;
		}
		if (state.running) {
			if (options.triggerTurn === false) this.pendingCustom.push(message);
			else if (options.deliverAs === "followUp") agent.followUp(message);
			else agent.steer(message);
			return;
		}
		if (options.triggerTurn) {
			if (state.settling) {
				this.deferUntilSettled(retry);
				return;
			}
			await this.host.selection.assertReady();
			await this.start({ messageType: "custom", message }, {});
			return;
		}
		this.appendIdleCustomMessage(message);
	}

	/** Custom messages held while a run was active are appended once it ends. */
	flushPendingCustom(): void {
		for (const message of this.pendingCustom.splice(0)) this.appendIdleCustomMessage(message);
	}

	/** Steps 9–12 of the prompt pipeline and the post-run loop; resolves after `agent_settled`. */
	async start(input: RunInput, options: PromptOptions): Promise<void> {
		const { state, userBash } = this.host;
		// A session another process holds is refused before anything starts (no run that cannot be saved).
		const readOnly = this.host.sessionManager.getReadOnlyReason();
		if (readOnly) throw new Error(`${readOnly}: nothing can be added to it`);
		state.running = true;
		state.abortRequested = false;
		let finish = () => {};
		this.runPromise = new Promise<void>((resolve) => {
			finish = resolve;
		});
		try {
			let messages: AgentMessage[];
			try {
				messages = await this.prepare(input);
			} catch (error) {
				state.running = false;
				this.flushPendingCustom();
				userBash.flush();
				throw error;
			}
			// Commands that finished while the run was being prepared precede its messages.
			userBash.flush();
			options.preflightResult?.("started");
			state.persistenceError = undefined;
			await runToSettled(this.postRunHost(), messages);
		} finally {
			this.runPromise = undefined;
			finish();
		}
		// Set by the event pipeline while the run was awaited (TypeScript cannot see that).
		const unsaved = state.persistenceError as Error | undefined;
		state.persistenceError = undefined;
		// Prompts and triggered messages sent while `agent_settled` was dispatched run now, in order.
		for (const deferred of this.deferredAfterSettle.splice(0)) void deferred().catch(() => undefined);
		if (unsaved) {
			// Nothing of the turn runs on without being saved (the session file is the source of truth).
			throw new Error(`${unsaved.message}. The turn was stopped.`, { cause: unsaved });
		}
	}

	private appendIdleCustomMessage(message: CustomMessage): void {
		this.host.persistence.persistMessage(message);
		this.host.refreshContext();
		this.host.emit({ type: "message_start", message });
		this.host.emit({ type: "message_end", message });
	}

	private postRunHost(): PostRunHost {
		const { agent, state, retry, overflow, bridge, prompts, userBash } = this.host;
		return {
			agent,
			state,
			retry,
			overflow,
			bridge,
			runner: () => this.host.runner(),
			emit: (event) => this.host.emit(event),
			refreshContext: () => this.host.refreshContext(),
			endRun: () => {
				prompts.endRun();
				this.flushPendingCustom();
				userBash.flush();
			},
		};
	}

	private async prepare(input: RunInput): Promise<AgentMessage[]> {
		const { sessionManager, tools, persistence, overflow, prompts, loadout, selection } = this.host;
		this.host.refreshContext();
		if (!this.replayChecked) {
			this.replayChecked = true;
			if (await replaySafeCalls(sessionManager, (name) => tools.getTool(name), persistence)) {
				this.host.refreshContext();
			}
		}
		const lastAssistant = sessionManager
			.buildSessionProjection()
			.messages.findLast((message) => message.role === "assistant");
		if (lastAssistant) await overflow.check(lastAssistant as AssistantMessage, false);
		const outcome = await prompts.beforeAgentStart(this.host.runner(), beforeAgentStartInput(input));
		loadout.apply();
		const autoResize = this.host.settingsManager.getImageAutoResize();
		const normalized = withNormalizedImages(input, selection.model, autoResize);
		const patch = prompts.patchFor(sessionManager.buildSessionProjection().messages);
		selection.recordSelectionOnBranch();
		return startingMessages(normalized, this.pendingNextTurn.splice(0), outcome.messages, patch);
	}
}
