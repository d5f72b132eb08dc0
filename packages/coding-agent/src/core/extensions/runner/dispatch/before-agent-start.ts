import type { ImageContent } from "@tau/ai";
import type { CustomMessage } from "../../../session/index.js";
import type {
	BeforeAgentStartEvent,
	BeforeAgentStartEventResult,
	ExtensionMessageDraft,
	NormalizedBuildSystemPromptOptions,
} from "../../api/events.js";
import type { DispatchHost } from "./dispatch-host.js";

export type BeforeAgentStartInput =
	| { messageType: "user"; prompt: string; images?: ImageContent[] }
	| { messageType: "custom"; message: CustomMessage };

export interface BeforeAgentStartOutcome {
	/** Every returned message, in handler order. */
	messages: ExtensionMessageDraft[];
	/** The shared options after all handlers (`forceSystemPrompt` set by a `systemPrompt` return). */
	systemPromptOptions: NormalizedBuildSystemPromptOptions;
	/** True when a handler changed `selectedTools` (then that list wins over the live active set). */
	selectedToolsChanged: boolean;
}

/**
 * `before_agent_start`: one mutable `systemPromptOptions` object is shared by all handlers;
 * `event.systemPrompt` is rendered on access so later handlers see earlier changes.
 */
export async function dispatchBeforeAgentStart(
	host: DispatchHost,
	input: BeforeAgentStartInput,
	systemPromptOptions: NormalizedBuildSystemPromptOptions,
	renderSystemPrompt: (options: NormalizedBuildSystemPromptOptions) => string,
): Promise<BeforeAgentStartOutcome> {
	const selectedBefore = [...systemPromptOptions.selectedTools];
	const outcome: BeforeAgentStartOutcome = { messages: [], systemPromptOptions, selectedToolsChanged: false };
	const handlers = host.handlers("before_agent_start");
	if (handlers.length > 0) {
		const event = { type: "before_agent_start", ...input, systemPromptOptions } as BeforeAgentStartEvent;
		Object.defineProperty(event, "systemPrompt", {
			enumerable: true,
			get: () => systemPromptOptions.forceSystemPrompt ?? renderSystemPrompt(systemPromptOptions),
		});
		const ctx = host.context();
		for (const { extensionPath, handler } of handlers) {
			let result: BeforeAgentStartEventResult | undefined;
			try {
				result = (await handler(event, ctx)) as BeforeAgentStartEventResult | undefined;
			} catch (error) {
				host.report(extensionPath, "before_agent_start", error);
				continue;
			}
			if (result?.message) outcome.messages.push(result.message);
			if (typeof result?.systemPrompt === "string") systemPromptOptions.forceSystemPrompt = result.systemPrompt;
		}
	}
	const selectedAfter = systemPromptOptions.selectedTools;
	outcome.selectedToolsChanged =
		selectedAfter.length !== selectedBefore.length || selectedAfter.some((name, i) => name !== selectedBefore[i]);
	return outcome;
}
