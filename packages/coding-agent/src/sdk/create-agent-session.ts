import { resolve } from "node:path";
import { Agent, type ThinkingLevel } from "@tau/agent";
import type { Api, Message, Model, ModelsRequestTransforms, ModelThinkingLevel, SimpleStreamOptions } from "@tau/ai";
import {
	getAgentDir,
	getToolListError,
	isToolModifier,
	isVirtualModel,
	type ModelRuntime,
	resolveInitialThinkingLevel,
	type ScopedModel,
	SETTINGS_DEFAULTS,
	SettingsManager,
	selectInitialModel,
} from "../config/index.js";
import { AgentSession } from "../core/agent-session/agent-session.js";
import type { RetrySleep } from "../core/agent-session/recovery-loop.js";
import type { SummaryCompletion } from "../core/compaction/index.js";
import { errorMessage } from "../core/errors.js";
import {
	type AnyToolDefinition,
	defaultExtensionLoader,
	type ExtensionProviderActions,
	type ExtensionRunner,
	type ExtensionRuntime,
	type SessionStartEvent,
} from "../core/extensions/index.js";
import { DefaultResourceLoader, type LoadExtensionsResult, type ResourceLoader } from "../core/resources/index.js";
import {
	branchHasContext,
	convertToLlm,
	fromBranchEnd,
	getBranchSelection,
	SessionManager,
	type SessionMessage,
} from "../core/session/index.js";
import { resolveToolSelection, type ToolsFlagValue } from "../core/tools/index.js";
import { createDefaultModelRuntime } from "./model-runtime-factory.js";
import { headerTransform, providerHooks } from "./provider-hooks.js";

/**
 * Options of `createAgentSession`: working and agent directories, model and thinking level, tools, resource
 * loader, session manager and model runtime; everything has a default.
 */
export interface CreateAgentSessionOptions {
	/** Default: the session manager's cwd, else `process.cwd()`; resolved to absolute. */
	cwd?: string;
	/** Default `~/.tau/agent`. */
	agentDir?: string;
	modelRuntime?: ModelRuntime;
	/** Wins over the model restored from the session and the defaults. */
	model?: Model<Api>;
	thinkingLevel?: ThinkingLevel | "off";
	scopedModels?: ScopedModel[];
	noTools?: "all" | "builtin";
	/** An allowlist (names or `*` patterns) or only `+name` / `-name` modifiers of the default tools. */
	tools?: string[];
	/** Removed from registration after everything else. */
	excludeTools?: string[];
	customTools?: AnyToolDefinition[];
	resourceLoader?: ResourceLoader;
	sessionManager?: SessionManager;
	settingsManager?: SettingsManager;
	/** Default `{ type: "session_start", reason: "startup" }`. */
	sessionStartEvent?: SessionStartEvent;
	/** Retry backoff wait (tests and hosts with their own clock); default a real timer. */
	retrySleep?: RetrySleep;
	/** The one-shot call compaction summaries use; default the model runtime's `completeSimple`. */
	summaryCompletion?: SummaryCompletion;
}

/**
 * What `createAgentSession` returns: the session, the extensions it loaded (with their errors), and a message when
 * the initial model fell back.
 */
export interface CreateAgentSessionResult {
	session: AgentSession;
	extensionsResult: LoadExtensionsResult;
	modelFallbackMessage?: string;
}

const NO_MODELS =
	"No models available. Use /login to sign in to a provider, or set an API key environment variable (for example ANTHROPIC_API_KEY or OPENAI_API_KEY).";

/**
 * Flushes extension provider registrations queued during loading into the model runtime, so
 * extension models are resolvable before the initial model is chosen. Returns the failures.
 */
export function flushProviderRegistrations(loader: ResourceLoader, modelRuntime: ModelRuntime): string[] {
	const runtime = loader.getExtensions().runtime as ExtensionRuntime | undefined;
	if (!runtime) return [];
	const failures: string[] = [];
	const guard = (extensionPath: string, register: () => void) => {
		try {
			register();
		} catch (error) {
			failures.push(`Extension "${extensionPath}" error: ${errorMessage(error)}`);
			throw error;
		}
	};
	const actions: ExtensionProviderActions = {
		registerProvider: (name, config, extensionPath) =>
			guard(extensionPath, () => {
				modelRuntime.registerProvider(name, config as never);
				// The runtime keeps composition errors per provider instead of throwing.
				const failure = modelRuntime.getProviderErrors().find((error) => error.startsWith(`Provider "${name}": `));
				if (failure) throw new Error(failure);
			}),
		registerNativeProvider: (provider, extensionPath) =>
			guard(extensionPath, () => modelRuntime.registerProvider(provider.id, provider as never)),
		unregisterProvider: (name) => modelRuntime.unregisterProvider(name),
		registerVirtualModel: (definition, extensionPath) =>
			guard(extensionPath, () => modelRuntime.registerVirtualModel(definition)),
		unregisterVirtualModel: (provider, id) => modelRuntime.unregisterVirtualModel(provider, id),
	};
	runtime.bindProviders(actions);
	return failures;
}

function parseToolsOption(tools: string[] | undefined): ToolsFlagValue | undefined {
	if (tools === undefined) return undefined;
	const error = getToolListError(tools);
	if (error) throw new Error(`Invalid tools option: ${error}`);
	return tools.some(isToolModifier) ? { kind: "modifiers", modifiers: tools } : { kind: "allowlist", patterns: tools };
}

/** Assembles an `Agent` and its `AgentSession`; runs nothing and binds no extensions (docs/design/session-runtime.md#assembly). */
export async function createAgentSession(options: CreateAgentSessionOptions = {}): Promise<CreateAgentSessionResult> {
	const tools = parseToolsOption(options.tools);
	const cwd = resolve(options.cwd ?? options.sessionManager?.getCwd() ?? process.cwd());
	const agentDir = options.agentDir ?? getAgentDir();
	const modelRuntime = options.modelRuntime ?? (await createDefaultModelRuntime(agentDir));
	const settingsManager = options.settingsManager ?? SettingsManager.create(cwd, agentDir);
	const sessionManager = options.sessionManager ?? SessionManager.create(cwd, undefined, undefined, { agentDir });
	let resourceLoader = options.resourceLoader;
	if (!resourceLoader) {
		resourceLoader = new DefaultResourceLoader({
			cwd,
			agentDir,
			settingsManager,
			loadExtensions: defaultExtensionLoader,
		});
		await resourceLoader.reload();
	}
	flushProviderRegistrations(resourceLoader, modelRuntime);
	await modelRuntime.refreshAvailability();

	// Model: explicit, else restored from the branch, else defaults. Answers name the physical model a
	// virtual selection routed to, so the branch's selection (a registered virtual model) comes first.
	// Read from the branch's end: a long session's other bodies wait until after the first frame.
	const { branch, hasMessages, restorable } = fromBranchEnd(sessionManager, (branch) => ({
		branch,
		hasMessages: branchHasContext(branch),
		restorable: getBranchSelection(branch, (provider, id) => {
			const model = modelRuntime.getModel(provider, id);
			return model !== undefined && isVirtualModel(model);
		}),
	}));
	const selection = selectInitialModel({
		...(options.model ? { cliModel: { model: options.model } } : {}),
		hasMessages,
		...(restorable ? { sessionModel: { provider: restorable.provider, id: restorable.modelId } } : {}),
		defaultProvider: settingsManager.getDefaultProvider(),
		defaultModel: settingsManager.getDefaultModel(),
		find: (provider, id) => modelRuntime.getModel(provider, id),
		models: () => modelRuntime.getAvailableSnapshot(),
		usable: (provider) => modelRuntime.hasConfiguredAuth(provider),
	});
	const model = selection.model as Model<Api> | undefined;
	let modelFallbackMessage = selection.warning;
	if (!model) modelFallbackMessage = modelFallbackMessage ? `${modelFallbackMessage}. ${NO_MODELS}` : NO_MODELS;

	const recorded = branch.findLast((entry) => entry.type === "thinking_level_change");
	const thinking = resolveInitialThinkingLevel({
		...(options.thinkingLevel ? { explicit: options.thinkingLevel as ModelThinkingLevel } : {}),
		hasMessages,
		...(recorded ? { sessionLevel: recorded.thinkingLevel as ModelThinkingLevel } : {}),
		...(model ? { model } : {}),
		settings: settingsManager,
	});

	const selectionOfTools = resolveToolSelection({
		...(tools ? { tools } : {}),
		...(options.excludeTools ? { excludeTools: options.excludeTools } : {}),
		...(options.noTools ? { noTools: options.noTools } : {}),
		...(settingsManager.getDefaultTools() ? { defaultTools: settingsManager.getDefaultTools() } : {}),
	});

	// The agent exists before the session; provider hooks reach the session's runner through this ref.
	let session: AgentSession | undefined;
	const runner = () => session?.extensionRunner;
	const agent = new Agent({
		...providerHooks(runner),
		initialState: {
			model: model as Model<Api>,
			thinkingLevel: thinking.effective as ThinkingLevel,
			tools: [],
		},
		convertToLlm: (messages) => blockImagesIfConfigured(settingsManager, convertToLlm(messages as SessionMessage[])),
		streamFn: (requestModel, context, streamOptions) =>
			modelRuntime.models.streamSimple(
				requestModel,
				context,
				requestOptions(settingsManager, streamOptions, runner),
			),
		sessionId: sessionManager.getSessionId(),
		steeringMode: settingsManager.getSteeringMode(),
		followUpMode: settingsManager.getFollowUpMode(),
		thinkingBudgets: settingsManager.getThinkingBudgets(),
	});
	// No model is explicit: the agent core would otherwise hold a stand-in model that looks selectable.
	if (!model) (agent.state as { model: Model<Api> | undefined }).model = undefined;

	// A read-only view (another process writes the file) records nothing; the writer has its own state.
	if (sessionManager.isReadOnly()) {
		// Nothing to record.
	} else if (hasMessages) {
		if (!recorded) sessionManager.appendThinkingLevelChange(thinking.effective);
	} else {
		if (model) sessionManager.appendModelChange(model.provider, model.id);
		sessionManager.appendThinkingLevelChange(thinking.effective);
	}

	session = new AgentSession({
		agent,
		sessionManager,
		settingsManager,
		cwd,
		resourceLoader,
		modelRuntime,
		initialActiveToolNames: selectionOfTools.initialActiveToolNames,
		usesDefaultTools: selectionOfTools.usesDefaultTools,
		...(selectionOfTools.defaultToolModifiers ? { defaultToolModifiers: selectionOfTools.defaultToolModifiers } : {}),
		...(options.scopedModels ? { scopedModels: options.scopedModels } : {}),
		...(options.customTools ? { customTools: options.customTools } : {}),
		...(selectionOfTools.allowedToolNames ? { allowedToolNames: selectionOfTools.allowedToolNames } : {}),
		...(selectionOfTools.excludedToolNames ? { excludedToolNames: selectionOfTools.excludedToolNames } : {}),
		...(options.sessionStartEvent ? { sessionStartEvent: options.sessionStartEvent } : {}),
		...(options.retrySleep ? { retrySleep: options.retrySleep } : {}),
		...(options.summaryCompletion ? { complete: options.summaryCompletion } : {}),
	});
	const result: CreateAgentSessionResult = { session, extensionsResult: resourceLoader.getExtensions() };
	if (modelFallbackMessage) result.modelFallbackMessage = modelFallbackMessage;
	return result;
}

/** Per-request options from settings: idle timeout and request-level retries (default none). */
function requestOptions(
	settings: SettingsManager,
	options: SimpleStreamOptions | undefined,
	runner: () => ExtensionRunner | undefined,
): SimpleStreamOptions & ModelsRequestTransforms {
	const provider = settings.getProviderRetrySettings();
	const transformHeaders = headerTransform(runner);
	// The agent passes unset options as `undefined`; those must not erase the settings below.
	const given = Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined));
	const websocketConnectTimeoutMs = settings.getWebSocketConnectTimeoutMs();
	const merged: SimpleStreamOptions & ModelsRequestTransforms = {
		...(transformHeaders ? { transformHeaders } : {}),
		maxRetries: provider.maxRetries ?? SETTINGS_DEFAULTS.retry.provider.maxRetries,
		maxRetryDelayMs: provider.maxRetryDelayMs,
		...(websocketConnectTimeoutMs !== undefined ? { websocketConnectTimeoutMs } : {}),
		...given,
	};
	// An explicit per-call timeout wins over `retry.provider.timeoutMs` / `httpIdleTimeoutMs` (0: none).
	const timeoutMs = provider.timeoutMs ?? settings.getHttpIdleTimeoutMs();
	if (timeoutMs > 0 && options?.timeoutMs === undefined) merged.timeoutMs = timeoutMs;
	return merged;
}

const BLOCKED_IMAGE_TEXT = "Image reading is disabled.";

/** `images.blockImages`, evaluated per request: image blocks become one placeholder text per run. */
function blockImagesIfConfigured(settings: SettingsManager, messages: Message[]): Message[] {
	if (!settings.getBlockImages()) return messages;
	return messages.map((message) => {
		if ((message.role !== "user" && message.role !== "toolResult") || typeof message.content === "string") {
			return message;
		}
		const content: typeof message.content = [];
		for (const block of message.content) {
			const replacement = block.type === "image" ? { type: "text" as const, text: BLOCKED_IMAGE_TEXT } : block;
			const previous = content.at(-1);
			if (
				replacement.type === "text" &&
				replacement.text === BLOCKED_IMAGE_TEXT &&
				previous?.type === "text" &&
				previous.text === BLOCKED_IMAGE_TEXT
			) {
				continue;
			}
			content.push(replacement);
		}
		return { ...message, content } as Message;
	});
}
