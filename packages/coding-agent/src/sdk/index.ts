export { AgentSession } from "../core/agent-session/agent-session.js";
export type {
	AgentSessionEvent,
	AgentSessionListener,
	CompactionReason,
	SubscribeOptions,
} from "../core/agent-session/events.js";
export type { RetrySleep } from "../core/agent-session/recovery-loop.js";
export {
	INTERRUPTED_TEXT,
	NEVER_STARTED_TEXT,
	TOOL_INTENT_TYPE,
	type ToolIntent,
} from "../core/agent-session/tool-intents.js";
export type { AgentSessionConfig, ExtensionBindings, PromptOptions } from "../core/agent-session/types.js";
export { DEMO_MODEL_ID, DEMO_PROVIDER_ID, demoProvider } from "../core/demo/demo-provider.js";
export { defaultExtensionLoader } from "../core/extensions/index.js";
export {
	AgentSessionRuntime,
	type CreateAgentSessionRuntimeFactory,
	createAgentSessionRuntime,
	MissingSessionCwdError,
	type RuntimeTarget,
	SessionImportFileNotFoundError,
} from "./agent-session-runtime.js";
export {
	type CreateAgentSessionOptions,
	type CreateAgentSessionResult,
	createAgentSession,
} from "./create-agent-session.js";
export { createDefaultModelRuntime } from "./model-runtime-factory.js";
export {
	type AgentSessionRuntimeDiagnostic,
	type AgentSessionServices,
	type CreateAgentSessionFromServicesOptions,
	type CreateAgentSessionServicesOptions,
	createAgentSessionFromServices,
	createAgentSessionServices,
} from "./services.js";
