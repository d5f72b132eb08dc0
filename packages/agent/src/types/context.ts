import type { AgentMessage } from "./messages.js";
import type { AgentTool } from "./tools.js";

export interface AgentContext {
	/** Transcript visible to the model, before `transformContext`/`convertToLlm`. */
	messages: AgentMessage[];
	/** Executable tool set for this run. */
	tools?: AgentTool<any>[];
}
