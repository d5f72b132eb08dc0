import type { Agent, AgentMessage, AgentState } from "@tau/agent";
import type { Api, ImageContent, Model } from "@tau/ai";
import type { ModelRuntime, ScopedModel, SettingsManager } from "../../config/index.js";
import type {
	AnyToolDefinition,
	BashResult,
	ContextUsage,
	ExtensionRunner,
	ReplacedSessionContext,
	ToolInfo,
} from "../extensions/index.js";
import type { ResourceLoader } from "../resources/index.js";
import type { CustomMessage, SessionManager } from "../session/index.js";
import type { AgentSessionEvent, AgentSessionListener, SessionCompactionResult, SubscribeOptions } from "./events.js";
import {
	announceSessionStart,
	applyBindings,
	bindSessionToRunner,
	createReplacedSessionContext,
	reloadExtensions,
} from "./extension-actions.js";
import { createRunner } from "./extension-bridge.js";
import { expandInput, expandQueuedInput, findExtensionCommand, runExtensionCommand } from "./input-pipeline.js";
import type { ModelCycleResult, SessionThinkingLevel } from "./model-selection.js";
import type { RunState } from "./run-loop.js";
import { customMessageOf, splitUserContent } from "./run-preparation.js";
import { exportSessionHtml, exportSessionJsonl, type HtmlExportOptions } from "./session-export.js";
import { computeSessionStats, type SessionStats } from "./session-stats.js";
import { type SessionCollaborators, wireSession } from "./session-wiring.js";
import { contextUsage, lastAssistantText, userMessagesForForking } from "./transcript-queries.js";
import { type NavigateTreeOptions, type NavigateTreeResult, navigateTree } from "./tree-navigation.js";
import type { AgentSessionConfig, ExtensionBindings, PromptOptions } from "./types.js";
import type { ExecuteBashOptions } from "./user-bash.js";
import type { VirtualModels } from "./virtual-models.js";

const COMPACTION_IN_PROGRESS =
	"Cannot submit a prompt while compaction is in progress. Wait for compaction to finish and retry.";
const ALREADY_PROCESSING =
	"Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

/**
 * The coordinator of one conversation: the prompt pipeline, projection of the session tree into each
 * request, persistence, the extension bridge, compaction, retries and settling. The work itself lives
 * in named collaborators (one file each); this class sequences them.
 */
export class AgentSession {
	readonly agent: Agent;
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	readonly cwd: string;
	readonly resourceLoader: ResourceLoader;
	readonly modelRuntime: ModelRuntime;

	private runner: ExtensionRunner;
	private scoped: ScopedModel[];
	private bindings: ExtensionBindings | undefined;
	private readonly config: AgentSessionConfig;

	private readonly run: RunState = {
		running: false,
		abortRequested: false,
		settling: false,
		lastAssistant: undefined,
		failedResponse: undefined,
	};
	private disposed = false;
	private branchSummary: AbortController | undefined;
	private preflights = 0;
	/** Extension virtual models of this session; the selection may name one, requests are routed. */
	readonly virtualModels: VirtualModels;
	/** The collaborators this class sequences (see `wireSession`). */
	private readonly parts: SessionCollaborators;

	constructor(config: AgentSessionConfig) {
		this.config = config;
		this.agent = config.agent;
		this.sessionManager = config.sessionManager;
		this.settingsManager = config.settingsManager;
		this.cwd = config.cwd;
		this.resourceLoader = config.resourceLoader;
		this.modelRuntime = config.modelRuntime;
		this.scoped = config.scopedModels ?? [];
		this.runner = createRunner(config.resourceLoader, config.cwd);
		this.parts = wireSession(config, {
			run: this.run,
			runner: () => this.runner,
			scopedModels: () => this.scoped,
			setScopedModels: (models: ScopedModel[]) => this.setScopedModels(models),
			refreshContext: () => this.refreshContext(),
		});
		this.virtualModels = this.parts.virtualModels;
		bindSessionToRunner(this, this.runner);
		this.parts.loadout.start(config.initialActiveToolNames);
		this.parts.opening.begin();
	}

	/** Until `finishOpening`, only the branch's end is read (docs/design/session-runtime.md#opening-a-long-session). */
	get isOpening(): boolean {
		return this.parts.opening.isPending;
	}
	/** Applies the whole branch now (the interactive mode, after its first frame; what needs the branch). */
	finishOpening(): void {
		this.parts.opening.finish();
	}

	// ---- state ---------------------------------------------------------------------------------

	get state(): AgentState {
		return this.agent.state;
	}
	/** The projection of the current branch (the authority), not whatever was assigned to the agent. */
	get messages(): AgentMessage[] {
		this.finishOpening();
		return this.sessionManager.buildSessionProjection().messages as AgentMessage[];
	}
	/** Undefined while the agent holds only its placeholder (no model could be selected). */
	get model(): Model<Api> | undefined {
		return this.parts.selection.model;
	}
	get thinkingLevel(): SessionThinkingLevel {
		return this.parts.selection.thinkingLevel;
	}
	/** Under a virtual selection: the physical model (and level) of the latest routed request. */
	get routedModel(): { model: Model<Api>; thinkingLevel?: string } | undefined {
		return this.virtualModels.isVirtual(this.model) ? this.parts.routed() : undefined;
	}
	get isStreaming(): boolean {
		return this.run.running;
	}
	get isCompacting(): boolean {
		return this.parts.compaction.isCompacting;
	}
	get isIdle(): boolean {
		return !this.run.running && !this.isCompacting;
	}
	get isRetrying(): boolean {
		return this.parts.retry.isRetrying;
	}
	get retryAttempt(): number {
		return this.parts.retry.retryAttempt;
	}
	get systemPrompt(): string {
		return this.parts.prompts.render();
	}
	get sessionFile(): string | undefined {
		return this.sessionManager.getSessionFile();
	}
	get sessionId(): string {
		return this.sessionManager.getSessionId();
	}
	get sessionName(): string | undefined {
		return this.sessionManager.getSessionName();
	}
	get scopedModels(): readonly ScopedModel[] {
		return this.scoped;
	}
	get promptTemplates() {
		return this.resourceLoader.getPrompts().prompts;
	}
	get extensionRunner(): ExtensionRunner {
		return this.runner;
	}
	get steeringMode() {
		return this.agent.steeringMode;
	}
	get followUpMode() {
		return this.agent.followUpMode;
	}
	get pendingMessageCount(): number {
		return this.parts.queues.count;
	}
	get autoCompactionEnabled(): boolean {
		return this.settingsManager.getCompactionEnabled();
	}
	get autoRetryEnabled(): boolean {
		return this.settingsManager.getRetryEnabled();
	}

	/** Session events as Pi emits them; `{ tauEvents: true }` adds tau's own (see `SubscribeOptions`). */
	subscribe(listener: AgentSessionListener, options?: SubscribeOptions): () => void {
		return this.parts.hub.subscribe(listener, options);
	}

	hasExtensionHandlers(eventType: string): boolean {
		return this.runner.hasHandlers(eventType);
	}

	// ---- prompting -----------------------------------------------------------------------------

	async prompt(text: string, options: PromptOptions = {}): Promise<void> {
		this.finishOpening();
		if (this.run.settling) {
			const deferred = new Promise<void>((resolve, reject) => {
				this.parts.launcher.deferUntilSettled(() => this.prompt(text, options).then(resolve, reject));
			});
			// Pi compatibility: a deferred prompt resolves at once. A caller waiting for the disposition
			// (`preflightResult`, e.g. RPC) instead follows the deferred prompt, so a failure reaches it.
			if (options.preflightResult) return deferred;
			deferred.catch(() => undefined);
			return;
		}
		const expand = options.expandPromptTemplates !== false;
		if (expand) {
			const command = findExtensionCommand(this.runner, text);
			if (command) {
				await runExtensionCommand(this.runner, command.command, command.args);
				options.preflightResult?.("handled");
				return;
			}
		}
		if (this.parts.compaction.isManualCompacting || this.branchSummary) throw new Error(COMPACTION_IN_PROGRESS);
		// Tree navigation refuses to start while a prompt is between its input hooks and its run.
		this.preflights++;
		let input: Awaited<ReturnType<typeof expandInput>>;
		try {
			input = await expandInput(this.runner, this.resourceLoader, {
				text,
				images: options.images,
				source: options.source ?? "interactive",
				streamingBehavior: this.run.running ? options.streamingBehavior : undefined,
				expand,
			});
			if (input === "handled") {
				options.preflightResult?.("handled");
				return;
			}
			const expanded = input;
			const queuedWhileStreaming = () => {
				if (!this.run.running) return false;
				if (!options.streamingBehavior) throw new Error(ALREADY_PROCESSING);
				this.parts.queues.enqueue(options.streamingBehavior, expanded.text, expanded.images);
				options.preflightResult?.("queued");
				return true;
			};
			if (queuedWhileStreaming()) return;
			await this.parts.selection.assertReady();
			// Checked again: another prompt may have started its run while this one awaited validation.
			if (queuedWhileStreaming()) return;
		} finally {
			this.preflights--;
		}
		await this.parts.launcher.start({ messageType: "user", text: input.text, images: input.images }, options);
	}

	steer(text: string, images?: ImageContent[], o: { source?: PromptOptions["source"] } = {}) {
		return this.queueInput("steer", text, images, o.source);
	}

	followUp(text: string, images?: ImageContent[], o: { source?: PromptOptions["source"] } = {}) {
		return this.queueInput("followUp", text, images, o.source);
	}

	async sendUserMessage(
		content: string | (ImageContent | { type: "text"; text: string })[],
		options: { deliverAs?: "steer" | "followUp"; expandPromptTemplates?: boolean } = {},
	): Promise<void> {
		const { text, images } = splitUserContent(content);
		await this.prompt(text, {
			expandPromptTemplates: options.expandPromptTemplates ?? false,
			...(options.deliverAs ? { streamingBehavior: options.deliverAs } : {}),
			...(images.length > 0 ? { images } : {}),
			source: "extension",
		});
	}

	async sendCustomMessage(
		input: { customType: string; content?: CustomMessage["content"]; display?: boolean; details?: unknown },
		options: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" } = {},
	): Promise<void> {
		this.finishOpening();
		const message = customMessageOf(input);
		await this.parts.launcher.deliverCustom(message, options, () => this.sendCustomMessage(input, options));
	}

	clearQueue(): { steering: string[]; followUp: string[] } {
		return this.parts.queues.clear();
	}

	getSteeringMessages(): readonly string[] {
		return this.parts.queues.steeringTexts();
	}

	getFollowUpMessages(): readonly string[] {
		return this.parts.queues.followUpTexts();
	}

	/** Stops the run, retry sleep and compaction, then waits until nothing runs. */
	async abort(): Promise<void> {
		if (this.run.running) this.run.abortRequested = true;
		this.parts.retry.abortSleep();
		this.parts.compaction.abort();
		this.branchSummary?.abort();
		this.agent.abort();
		await this.waitForIdle();
	}

	abortRetry(): void {
		this.parts.retry.abortSleep();
	}

	abortCompaction(): void {
		this.parts.compaction.abort();
	}

	waitForIdle(): Promise<void> {
		return this.parts.launcher.waitForIdle();
	}

	// ---- model and thinking --------------------------------------------------------------------

	setModel(model: Model<Api>, options: { persist?: boolean } = {}): Promise<void> {
		return this.parts.selection.setModel(model, options);
	}
	cycleModel(direction: "forward" | "backward" = "forward"): Promise<ModelCycleResult | undefined> {
		return this.parts.selection.cycleModel(direction);
	}
	setThinkingLevel(level: SessionThinkingLevel, options: { persist?: boolean } = {}): void {
		this.parts.selection.setThinkingLevel(level, options);
	}
	cycleThinkingLevel(): SessionThinkingLevel | undefined {
		return this.parts.selection.cycleThinkingLevel();
	}
	getAvailableThinkingLevels(): SessionThinkingLevel[] {
		return this.parts.selection.getAvailableThinkingLevels();
	}
	supportsThinking(): boolean {
		return this.model?.reasoning === true;
	}

	setScopedModels(models: ScopedModel[]): void {
		this.scoped = models;
	}

	setSteeringMode(mode: "all" | "one-at-a-time"): void {
		this.agent.steeringMode = mode;
		this.settingsManager.setSteeringMode(mode);
	}

	setFollowUpMode(mode: "all" | "one-at-a-time"): void {
		this.agent.followUpMode = mode;
		this.settingsManager.setFollowUpMode(mode);
	}

	// ---- tools ---------------------------------------------------------------------------------

	getActiveToolNames(): string[] {
		this.finishOpening();
		return this.parts.tools.getActiveToolNames();
	}
	getCallableToolNames(): string[] {
		return this.parts.tools.getCallableToolNames();
	}
	getAllTools(): ToolInfo[] {
		return this.parts.tools.getAllTools();
	}
	getToolDefinition(name: string): AnyToolDefinition | undefined {
		return this.parts.tools.getDefinition(name);
	}
	/** Takes effect on the next request: the loop declares the change with a system message. */
	setActiveToolsByName(names: string[]): void {
		this.parts.loadout.setActive(names);
	}
	/** Rebuilds the registry after extension registrations. */
	refreshTools(): void {
		this.parts.loadout.refresh();
	}

	// ---- compaction and retry ------------------------------------------------------------------

	async compact(customInstructions?: string): Promise<SessionCompactionResult> {
		this.finishOpening();
		await this.abort();
		return this.parts.compaction.compactManually(customInstructions);
	}

	setAutoCompactionEnabled(enabled: boolean): void {
		this.settingsManager.setCompactionEnabled(enabled);
	}

	setAutoRetryEnabled(enabled: boolean): void {
		this.settingsManager.setRetryEnabled(enabled);
	}

	// ---- session ---------------------------------------------------------------------------------

	/** Moves the leaf (`/tree`), maybe summarizing the branch left; refused while anything else runs. */
	async navigateTree(targetId: string, options: NavigateTreeOptions = {}): Promise<NavigateTreeResult> {
		this.finishOpening();
		if (this.run.running || this.preflights > 0) {
			throw new Error("Wait for the current response to finish before navigating the session tree.");
		}
		if (this.isCompacting || this.branchSummary) {
			throw new Error("Wait for compaction or summarization to finish before navigating the session tree.");
		}
		const controller = new AbortController();
		this.branchSummary = controller;
		try {
			return await navigateTree(
				{
					...this.parts.summaries,
					afterMove: () => {
						this.refreshContext();
						this.parts.loadout.restoreFromBranch();
					},
				},
				targetId,
				options,
				controller.signal,
			);
		} finally {
			this.branchSummary = undefined;
		}
	}

	abortBranchSummary(): void {
		this.branchSummary?.abort();
	}

	/** `pi.appendEntry`: a custom entry (never sent to the model), announced as `entry_appended`. */
	appendCustomEntry(customType: string, data?: unknown): void {
		this.parts.persistence.appendAnnounced(() => this.sessionManager.appendCustomEntry(customType, data));
	}

	/** `ctx.shutdown()`: the host decides (its shutdown handler); without one nothing happens. */
	requestShutdown(): void {
		this.bindings?.shutdownHandler?.();
	}

	/** The base system prompt options (what `before_agent_start` handlers start from). */
	systemPromptOptions() {
		return this.parts.prompts.baseOptions();
	}

	setSessionName(name: string): void {
		this.parts.persistence.appendAnnounced(() => this.sessionManager.appendSessionInfo(name), { tauOnly: true });
		this.parts.hub.emit({ type: "session_info_changed", name: this.sessionManager.getSessionName() });
	}

	getUserMessagesForForking(): { entryId: string; text: string }[] {
		return userMessagesForForking(this.sessionManager.getBranch());
	}

	/** Newest assistant reply that stopped normally or has text; its trimmed text. */
	getLastAssistantText(): string | undefined {
		return lastAssistantText(this.sessionManager.buildSessionProjection().messages);
	}

	getContextUsage(): ContextUsage | undefined {
		this.finishOpening();
		return contextUsage(this.sessionManager.getBranch(), this.model, this.sessionManager.buildSessionProjection());
	}

	/** Counts and spend over the whole session file, with the current context usage. */
	getSessionStats(): SessionStats {
		return computeSessionStats(this.sessionManager, this.getContextUsage());
	}

	/** Writes the session as an HTML page (named after its file or id, in the cwd), with extension tool views; returns the path. */
	exportToHtml(path?: string, options: HtmlExportOptions = {}): Promise<string> {
		return exportSessionHtml(this.sessionManager, this.cwd, path, {
			...options,
			resourceLoader: this.resourceLoader,
			getToolDefinition: (name) => this.getToolDefinition(name),
		});
	}

	/** Writes a JSONL copy of the session (header and every entry); returns the path. */
	exportToJsonl(path?: string): string {
		return exportSessionJsonl(this.sessionManager, this.cwd, path);
	}

	// ---- user bash (`!` commands) --------------------------------------------------------------

	get isBashRunning(): boolean {
		return this.parts.userBash.isRunning;
	}

	get hasPendingBashMessages(): boolean {
		return this.parts.userBash.hasPendingMessages;
	}

	/** Runs a user command in the cwd (a `user_bash` handler's `operations` or the shell), recorded for the next prompt. */
	executeBash(command: string, onChunk?: (text: string) => void, options?: ExecuteBashOptions): Promise<BashResult> {
		return this.parts.userBash.execute(command, onChunk, options);
	}

	/** Records a result produced elsewhere (a `user_bash` handler's `result`); held while a run is active. */
	recordBashResult(command: string, result: BashResult, options?: { excludeFromContext?: boolean }): void {
		this.parts.userBash.record(command, result, options);
	}

	/** Aborts every running user command; each reports `cancelled: true`. */
	abortBash(): void {
		this.parts.userBash.abort();
	}

	/** Re-derives the agent's message cache from the session tree. */
	refreshContext(): void {
		this.agent.state.messages = this.sessionManager.buildSessionProjection().messages as AgentMessage[];
	}

	// ---- lifecycle -------------------------------------------------------------------------------

	/** Applies host bindings to the runner, then emits `session_start` and `resources_discover`. */
	async bindExtensions(bindings: ExtensionBindings): Promise<void> {
		// Other extensions than tau's own (which call `finishOpening` through what they read) may read the whole branch.
		const { extensions } = this.resourceLoader.getExtensions();
		if (extensions.some((extension) => !extension.path.startsWith("builtin:"))) this.finishOpening();
		this.bindings = { ...this.bindings, ...bindings };
		applyBindings(this.runner, bindings);
		const start = this.config.sessionStartEvent ?? { type: "session_start", reason: "startup" };
		await announceSessionStart(this.runner, this.resourceLoader, this.cwd, start);
	}

	/**
	 * `/reload`: `session_shutdown {reload}`, reloads resources and extensions (a fresh runner with the
	 * same flag values and active tools), then — only if extensions were bound — `session_start {reload}`.
	 */
	async reload(options: { beforeSessionStart?: () => void | Promise<void> } = {}): Promise<void> {
		if (this.run.running) throw new Error("Wait for the current response to finish before reloading.");
		if (this.isCompacting) throw new Error("Wait for compaction to finish before reloading.");
		const active = this.getActiveToolNames();
		await reloadExtensions({
			previous: this.runner,
			loader: this.resourceLoader,
			cwd: this.cwd,
			bindings: this.bindings,
			// The loader re-read the settings: apply the queue modes and any tools new to `defaultTools`.
			install: (runner) => {
				this.runner = runner;
				bindSessionToRunner(this, runner);
				this.agent.steeringMode = this.settingsManager.getSteeringMode();
				this.agent.followUpMode = this.settingsManager.getFollowUpMode();
				this.parts.loadout.reload(active);
			},
			...(options.beforeSessionStart ? { beforeSessionStart: options.beforeSessionStart } : {}),
		});
	}

	/** The context a runtime hands `withSession` after a replacement: a command context whose sends are awaited. */
	createReplacedSessionContext(): ReplacedSessionContext {
		return createReplacedSessionContext(this, this.runner);
	}

	/** Aborts, emits `session_shutdown` when extensions were bound, then disposes (for hosts without a runtime). */
	async shutdown(reason: "quit" | "reload" | "new" | "resume" | "fork" = "quit"): Promise<void> {
		await this.abort().catch(() => undefined);
		if (this.bindings && this.runner.hasHandlers("session_shutdown")) {
			await this.runner.emit({ type: "session_shutdown", reason });
		}
		this.dispose();
	}

	/** Never throws: stops everything, invalidates the runner and drops every listener. */
	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		for (const stop of [
			() => this.parts.retry.abortSleep(),
			() => this.parts.compaction.abort(),
			() => this.branchSummary?.abort(),
			() => this.parts.userBash.abort(),
			() => this.agent.abort(),
			() => this.runner.invalidate(),
			() => this.parts.unsubscribeAgent(),
		]) {
			try {
				stop();
			} catch {
				// dispose is best effort by contract
			}
		}
		this.parts.hub.clear();
	}

	// ---- internals -------------------------------------------------------------------------------

	private async queueInput(
		behavior: "steer" | "followUp",
		text: string,
		images: ImageContent[] | undefined,
		source: PromptOptions["source"],
	): Promise<"handled" | "queued"> {
		const input = await expandQueuedInput(this.runner, this.resourceLoader, {
			text,
			images,
			source: source ?? "interactive",
			streamingBehavior: this.run.running ? behavior : undefined,
		});
		if (input === "handled") return "handled";
		this.parts.queues.enqueue(behavior, input.text, input.images);
		return "queued";
	}
}

export type { AgentSessionEvent, AgentSessionListener, ExtensionBindings, PromptOptions };
