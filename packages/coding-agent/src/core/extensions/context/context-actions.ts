import type { ThinkingLevel } from "@tau/agent";
import type { Model } from "@tau/ai";
import type { ModelRegistry, ScopedModel } from "../../../config/index.js";
import type { BuildSystemPromptOptions } from "../../resources/system-prompt/system-prompt.js";
import type { ReadonlySessionManager } from "../../session/index.js";
import type {
	CompactOptions,
	ContextUsage,
	ExtensionCommandContext,
	ReplacedSessionContext,
	SessionReplacementResult,
} from "../api/context.js";

/** Session state behind every `ctx` getter, installed by `bindCore`. */
export interface ExtensionContextActions {
	getSessionManager(): ReadonlySessionManager;
	getModelRegistry(): ModelRegistry;
	getModel(): Model<any> | undefined;
	getScopedModels(): readonly ScopedModel[];
	getThinkingLevel(): ThinkingLevel | undefined;
	isIdle(): boolean;
	isProjectTrusted(): boolean;
	getSignal(): AbortSignal | undefined;
	abort(): void;
	hasPendingMessages(): boolean;
	shutdown(): void;
	getContextUsage(): ContextUsage | undefined;
	compact(options?: CompactOptions): void;
	getSystemPrompt(): string;
	getSystemPromptOptions(): BuildSystemPromptOptions;
}

/** Session-control actions of command contexts, installed by `bindCommandContext`. */
export interface ExtensionCommandContextActions {
	waitForIdle(): Promise<void>;
	newSession(options?: Parameters<ExtensionCommandContext["newSession"]>[0]): Promise<SessionReplacementResult>;
	fork(entryId: string, options?: Parameters<ExtensionCommandContext["fork"]>[1]): Promise<SessionReplacementResult>;
	navigateTree(
		targetId: string,
		options?: Parameters<ExtensionCommandContext["navigateTree"]>[1],
	): Promise<SessionReplacementResult>;
	switchSession(
		sessionPath: string,
		options?: Parameters<ExtensionCommandContext["switchSession"]>[1],
	): Promise<SessionReplacementResult>;
	reload(): Promise<void>;
}

export type { ReplacedSessionContext };
