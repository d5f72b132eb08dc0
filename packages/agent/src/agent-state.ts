import { createInitialSystemMessage, getCurrentSystemPrompt, type Model, toToolDeclaration } from "@tau/ai";
import type { AgentMessage, ThinkingLevel } from "./types/messages.js";
import type { AgentOptions, AgentState } from "./types/state.js";
import type { AgentTool } from "./types/tools.js";

/**
 * Stands in until the host sets a real model; requests with it cannot succeed. Its id, name, api
 * and provider are all `unknown` (what Pi's agent holds before a model is set).
 */
export function placeholderModel(): Model<any> {
	return {
		id: "unknown",
		name: "unknown",
		api: "unknown",
		provider: "unknown",
		baseUrl: "",
		reasoning: false,
		input: [],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 0,
		maxTokens: 0,
	};
}

/**
 * The Agent's live state. Public readers see `AgentState` (read-only run fields); only the Agent's event
 * reduction writes the run fields.
 */
export class MutableAgentState implements AgentState {
	model: Model<any>;
	thinkingLevel: ThinkingLevel;
	isStreaming = false;
	streamingMessage: AgentMessage | undefined;
	pendingToolCalls: ReadonlySet<string> = new Set();
	errorMessage: string | undefined;
	#messages: AgentMessage[];
	#tools: AgentTool<any>[];

	constructor(initial: AgentOptions["initialState"] = {}) {
		this.model = initial.model ?? placeholderModel();
		this.thinkingLevel = initial.thinkingLevel ?? "off";
		this.#tools = (initial.tools ?? []).slice();
		this.#messages = (initial.messages ?? []).slice();
		const leading = createInitialSystemMessage(initial.systemPrompt, this.#tools.map(toToolDeclaration));
		// An existing leading system message wins; tool differences are declared at the first request.
		if (leading && this.#messages[0]?.role !== "system") this.#messages.unshift(leading);
	}

	get systemPrompt(): string {
		return getCurrentSystemPrompt(this.#messages);
	}

	get messages(): AgentMessage[] {
		return this.#messages;
	}

	set messages(messages: AgentMessage[]) {
		this.#messages = messages.slice();
	}

	get tools(): AgentTool<any>[] {
		return this.#tools;
	}

	set tools(tools: AgentTool<any>[]) {
		this.#tools = tools.slice();
	}
}
