import type { Agent } from "@tau/agent";
import type { ImageContent } from "@tau/ai";
import type { ModelRuntime, ScopedModel, SettingsManager } from "../../config/index.js";
import type { SummaryCompletion } from "../compaction/index.js";
import type {
	AnyToolDefinition,
	ExtensionCommandContextActions,
	ExtensionError,
	ExtensionMode,
	ExtensionUIContext,
	InputSource,
	SessionStartEvent,
} from "../extensions/index.js";
import type { ResourceLoader } from "../resources/index.js";
import type { SessionManager } from "../session/index.js";
import type { RetrySleep } from "./recovery-loop.js";

/**
 * Options of `AgentSession.prompt`: whether to expand commands and templates, attached images, and how to queue
 * the prompt while the agent is busy.
 */
export interface PromptOptions {
	/** Default true: extension commands, `/skill:` and prompt templates. */
	expandPromptTemplates?: boolean;
	images?: ImageContent[];
	/** Required while a run is active. */
	streamingBehavior?: "steer" | "followUp";
	/** Default `"interactive"`. */
	source?: InputSource;
	/** Not called when the prompt is rejected. */
	preflightResult?: (decision: "handled" | "queued" | "started") => void;
}

export interface ExtensionBindings {
	uiContext?: ExtensionUIContext;
	mode?: ExtensionMode;
	commandContextActions?: ExtensionCommandContextActions;
	abortHandler?: () => void;
	shutdownHandler?: () => void;
	onError?: (error: ExtensionError) => void;
}

/** What `createAgentSession` hands the coordinator. */
export interface AgentSessionConfig {
	agent: Agent;
	sessionManager: SessionManager;
	settingsManager: SettingsManager;
	cwd: string;
	resourceLoader: ResourceLoader;
	modelRuntime: ModelRuntime;
	scopedModels?: ScopedModel[];
	customTools?: AnyToolDefinition[];
	initialActiveToolNames: string[];
	/** The initial built-ins came from `defaultTools`: a resumed branch restores its recorded built-ins too. */
	usesDefaultTools?: boolean;
	/** `+name` / `-name` modifiers re-applied to a restored loadout. */
	defaultToolModifiers?: string[];
	allowedToolNames?: string[];
	excludedToolNames?: string[];
	sessionStartEvent?: SessionStartEvent;
	/** The one-shot LLM call compaction uses; default: the model runtime's `completeSimple`. */
	complete?: SummaryCompletion;
	/** Retry backoff wait; default a real abortable timer. */
	retrySleep?: RetrySleep;
}
