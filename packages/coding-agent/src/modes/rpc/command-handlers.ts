import { placeholderModel } from "@tau/agent";
import type { Api, ImageContent, Model } from "@tau/ai";
import type { AgentSession } from "../../core/agent-session/agent-session.js";
import type { AgentSessionRuntime } from "../../sdk/agent-session-runtime.js";
import type { DirectBash } from "./direct-bash.js";
import type {
	PromptDisposition,
	RpcCommand,
	RpcCommandData,
	RpcCommandType,
	RpcSessionState,
	RpcSlashCommand,
	RpcThinkingLevel,
} from "./types.js";

/** What the handlers need from the running mode. */
export interface RpcCommandHost {
	readonly runtime: AgentSessionRuntime;
	readonly bash: DirectBash;
	/** Writes one `bash_execution_update` for the command with this id. */
	bashOutput(id: string | undefined, delta: string): void;
	/** Keeps the process alive (for `ctx.shutdown()`) until a started prompt's run has settled. */
	trackRun(run: Promise<void>): void;
	/** Reports a failure that happened after a prompt was accepted (stderr; never a second response). */
	reportLateFailure(error: unknown): void;
	/** Streams tau-only session events too, or stops streaming them. */
	setTauEvents(enabled: boolean): void;
}

type Handler<T extends RpcCommandType> = (
	command: Extract<RpcCommand, { type: T }>,
	session: AgentSession,
	host: RpcCommandHost,
) => Promise<RpcCommandData[T]> | RpcCommandData[T];

type Handlers = { [T in RpcCommandType]: Handler<T> };

function sameModel(a: Model<Api> | undefined, b: Model<Api>): boolean {
	return a?.provider === b.provider && a.id === b.id;
}

function stateOf(session: AgentSession): RpcSessionState {
	const file = session.sessionFile;
	const name = session.sessionName;
	return {
		// Without a selection: the agent core's stand-in, which is what Pi reports.
		model: session.model ?? (placeholderModel() as Model<Api>),
		thinkingLevel: session.thinkingLevel,
		isStreaming: session.isStreaming,
		isCompacting: session.isCompacting,
		steeringMode: session.steeringMode,
		followUpMode: session.followUpMode,
		...(file ? { sessionFile: file } : {}),
		sessionId: session.sessionId,
		...(name ? { sessionName: name } : {}),
		autoCompactionEnabled: session.autoCompactionEnabled,
		messageCount: session.messages.length,
		pendingMessageCount: session.pendingMessageCount,
	};
}

/**
 * `prompt` answers the moment its disposition is known (the preflight callback), not when the run
 * ends; a failure before that point is the single failed response.
 */
function prompt(
	command: { message: string; images?: ImageContent[]; streamingBehavior?: "steer" | "followUp" },
	session: AgentSession,
	host: RpcCommandHost,
): Promise<{ disposition: PromptDisposition }> {
	return new Promise((resolve, reject) => {
		let decided = false;
		const run = session.prompt(command.message, {
			...(command.images ? { images: command.images } : {}),
			...(command.streamingBehavior ? { streamingBehavior: command.streamingBehavior } : {}),
			source: "rpc",
			preflightResult: (disposition) => {
				decided = true;
				resolve({ disposition });
			},
		});
		host.trackRun(
			run.then(
				() => {},
				(error) => {
					if (decided) host.reportLateFailure(error);
					else reject(error);
				},
			),
		);
	});
}

function cycleModel(session: AgentSession): Promise<RpcCommandData["cycle_model"]> | null {
	const scoped = session.scopedModels;
	const isScoped = scoped.length > 0;
	const candidates = isScoped
		? scoped.map((entry) => ({ model: entry.model as Model<Api>, thinkingLevel: entry.thinkingLevel }))
		: session.modelRuntime
				.getAvailableSnapshot()
				.map((model) => ({ model: model as Model<Api>, thinkingLevel: undefined }));
	if (candidates.length <= 1) return null;
	const current = candidates.findIndex((candidate) => sameModel(session.model, candidate.model));
	const next = candidates[(current + 1) % candidates.length]!;
	return (async () => {
		await session.setModel(next.model);
		if (next.thinkingLevel) session.setThinkingLevel(next.thinkingLevel);
		return { model: next.model, thinkingLevel: session.thinkingLevel, isScoped };
	})();
}

function cycleThinkingLevel(session: AgentSession): RpcCommandData["cycle_thinking_level"] {
	if (!session.supportsThinking()) return null;
	const levels = session.getAvailableThinkingLevels() as RpcThinkingLevel[];
	const next = levels[(levels.indexOf(session.thinkingLevel) + 1) % levels.length] ?? "off";
	session.setThinkingLevel(next);
	return { level: session.thinkingLevel };
}

function slashCommands(session: AgentSession): RpcSlashCommand[] {
	const extensionCommands = session.extensionRunner.getCommands().map(
		(command): RpcSlashCommand => ({
			name: command.invocationName,
			...(command.options.description ? { description: command.options.description } : {}),
			source: "extension",
			sourceInfo: command.sourceInfo,
		}),
	);
	const templates = session.resourceLoader.getPrompts().prompts.map(
		(template): RpcSlashCommand => ({
			name: template.name,
			...(template.description ? { description: template.description } : {}),
			source: "prompt",
			sourceInfo: template.sourceInfo,
		}),
	);
	const skills = session.resourceLoader.getSkills().skills.map(
		(skill): RpcSlashCommand => ({
			name: `skill:${skill.name}`,
			...(skill.description ? { description: skill.description } : {}),
			source: "skill",
			sourceInfo: skill.sourceInfo,
		}),
	);
	return [...extensionCommands, ...templates, ...skills];
}

export const commandHandlers: Handlers = {
	prompt: (command, session, host) => prompt(command, session, host),
	steer: async (command, session) => ({
		disposition: await session.steer(command.message, command.images, { source: "rpc" }),
	}),
	follow_up: async (command, session) => ({
		disposition: await session.followUp(command.message, command.images, { source: "rpc" }),
	}),
	abort: async (_command, session) => {
		await session.abort();
		return undefined;
	},
	clear_queue: (_command, session) => session.clearQueue(),
	new_session: (command, _session, host) =>
		host.runtime.newSession(command.parentSession ? { parentSession: command.parentSession } : {}),
	get_state: (_command, session) => stateOf(session),
	get_messages: (_command, session) => ({ messages: session.messages }),
	set_model: async (command, session) => {
		const model = session.modelRuntime
			.getAvailableSnapshot()
			.find((candidate) => candidate.provider === command.provider && candidate.id === command.modelId);
		if (!model) throw new Error(`Model not found: ${command.provider}/${command.modelId}`);
		await session.setModel(model as Model<Api>);
		return model as Model<Api>;
	},
	cycle_model: (_command, session) => cycleModel(session),
	get_available_models: (_command, session) => ({
		models: [...session.modelRuntime.getAvailableSnapshot()] as Model<Api>[],
	}),
	set_thinking_level: (command, session) => {
		session.setThinkingLevel(command.level);
		return undefined;
	},
	cycle_thinking_level: (_command, session) => cycleThinkingLevel(session),
	get_available_thinking_levels: (_command, session) => ({
		levels: (session.supportsThinking() ? session.getAvailableThinkingLevels() : ["off"]) as RpcThinkingLevel[],
	}),
	set_steering_mode: (command, session) => {
		session.setSteeringMode(command.mode);
		return undefined;
	},
	set_follow_up_mode: (command, session) => {
		session.setFollowUpMode(command.mode);
		return undefined;
	},
	compact: (command, session) => session.compact(command.customInstructions),
	set_auto_compaction: (command, session) => {
		session.setAutoCompactionEnabled(command.enabled);
		return undefined;
	},
	set_auto_retry: (command, session) => {
		session.setAutoRetryEnabled(command.enabled);
		return undefined;
	},
	abort_retry: (_command, session) => {
		session.abortRetry();
		return undefined;
	},
	bash: (command, session, host) =>
		host.bash.run(
			session,
			{
				command: command.command,
				excludeFromContext: command.excludeFromContext === true,
				...(command.id !== undefined ? { id: command.id } : {}),
			},
			(delta) => host.bashOutput(command.id, delta),
		),
	abort_bash: (_command, session) => {
		session.abortBash();
		return undefined;
	},
	get_session_stats: (_command, session) => session.getSessionStats(),
	export_html: async (command, session) => ({ path: await session.exportToHtml(command.outputPath) }),
	switch_session: (command, _session, host) => host.runtime.switchSession(command.sessionPath),
	fork: async (command, _session, host) => {
		const result = await host.runtime.fork(command.entryId);
		return result.cancelled ? { cancelled: true } : { text: result.selectedText ?? "", cancelled: false };
	},
	clone: async (_command, session, host) => {
		const leaf = session.sessionManager.getLeafId();
		if (leaf === null) throw new Error("Cannot clone session: no current entry selected");
		const result = await host.runtime.fork(leaf, { position: "at" });
		return { cancelled: result.cancelled };
	},
	get_fork_messages: (_command, session) => ({ messages: session.getUserMessagesForForking() }),
	get_entries: (command, session) => {
		const entries = session.sessionManager.getEntries();
		const leafId = session.sessionManager.getLeafId();
		if (command.since === undefined) return { entries, leafId };
		const index = entries.findIndex((entry) => entry.id === command.since);
		if (index < 0) throw new Error(`Entry not found: ${command.since}`);
		return { entries: entries.slice(index + 1), leafId };
	},
	get_tree: (_command, session) => ({
		tree: session.sessionManager.getTree(),
		leafId: session.sessionManager.getLeafId(),
	}),
	get_last_assistant_text: (_command, session) => {
		const text = session.getLastAssistantText();
		return text === undefined ? {} : { text };
	},
	set_session_name: (command, session) => {
		const name = typeof command.name === "string" ? command.name.trim() : "";
		if (name === "") throw new Error("Session name cannot be empty");
		session.setSessionName(name);
		return undefined;
	},
	get_commands: (_command, session) => ({ commands: slashCommands(session) }),
	set_tau_events: (command, _session, host) => {
		host.setTauEvents(command.enabled === true);
		return undefined;
	},
};

export function isCommandType(type: string): type is RpcCommandType {
	return Object.hasOwn(commandHandlers, type);
}
