import type { AgentMessage } from "./messages.js";
import type { AgentTool } from "./tools.js";

/** The transcript and tool set one agent-loop run works on. */
export interface AgentContext {
	/** Transcript visible to the model, before `transformContext`/`convertToLlm`. */
	messages: AgentMessage[];
	/** Executable tool set for this run. */
	tools?: AgentTool<any>[];
}
