import type { AgentMessage } from "@tau/agent";
import { getCurrentTools, type SystemMessage, type Tool } from "@tau/ai";
import type {
	BeforeAgentStartInput,
	ExtensionRunner,
	NormalizedBuildSystemPromptOptions,
} from "../extensions/index.js";
import {
	type BuildSystemPromptOptions,
	buildSystemPrompt,
	buildSystemPromptSections,
	createSystemPromptUpdate,
	normalizeBuildSystemPromptOptions,
	type ResourceLoader,
} from "../resources/index.js";
import type { ToolRegistry } from "./tool-registry.js";

export interface PromptStateOptions {
	cwd: string;
	loader: ResourceLoader;
	tools: ToolRegistry;
	/** Active tools hidden by `prepareLoadout`: left out of the prompt's tool list and rules. */
	hidden: () => ReadonlySet<string>;
	/** The executable tools as declared (after `prepareLoadout` descriptions): what the transcript must match. */
	declared: () => readonly Tool[];
}

/**
 * The system prompt as transcript state: base options from resources and the active tools, the
 * run-level options after `before_agent_start`, and the patch message that brings the transcript's
 * replayed prompt up to date (only changed sections, never a rewritten prefix).
 */
export class PromptState {
	private runOptions: NormalizedBuildSystemPromptOptions | undefined;

	constructor(private readonly options: PromptStateOptions) {}

	baseOptions(): BuildSystemPromptOptions {
		const { loader, tools, cwd } = this.options;
		const metadata = tools.promptMetadata();
		const options: BuildSystemPromptOptions = {
			cwd,
			selectedTools: tools.getActiveToolNames(),
			hiddenTools: [...this.options.hidden()],
			toolSnippets: metadata.snippets,
			toolGuidelines: metadata.guidelines,
			contextFiles: loader.getAgentsFiles().agentsFiles,
			skills: loader.getSkills().skills,
		};
		const custom = loader.getSystemPrompt();
		if (custom !== undefined) options.customPrompt = custom;
		const append = loader.getAppendSystemPrompt();
		if (append.length > 0) options.appendSystemPrompt = append.join("\n\n");
		return options;
	}

	/** What `session.systemPrompt` shows: the run's options while a run is active, else the base ones. */
	render(): string {
		return buildSystemPrompt(this.runOptions ?? this.baseOptions());
	}

	/** `before_agent_start` with the base options; a changed `selectedTools` list becomes the active set. */
	async beforeAgentStart(runner: ExtensionRunner, input: BeforeAgentStartInput) {
		const base = normalizeBuildSystemPromptOptions(this.baseOptions()) as NormalizedBuildSystemPromptOptions;
		const outcome = await runner.emitBeforeAgentStart(input, base, (options) => buildSystemPrompt(options));
		if (outcome.selectedToolsChanged) this.options.tools.setActive(outcome.systemPromptOptions.selectedTools);
		this.runOptions = outcome.systemPromptOptions;
		return outcome;
	}

	endRun(): void {
		this.runOptions = undefined;
	}

	/** The system message to append before the next request, or undefined when the transcript is current. */
	patchFor(transcript: readonly { role: string }[]): SystemMessage | undefined {
		const { forceSystemPrompt: _forced, ...options } = this.runOptions ?? this.baseOptions();
		const sections = buildSystemPromptSections({
			...options,
			selectedTools: this.options.tools.getActiveToolNames(),
		});
		return createSystemPromptUpdate(transcript, { sections, tools: this.options.declared() }, Date.now());
	}

	/**
	 * A forced prompt (from `before_agent_start`) replaces every system message by one leading message
	 * for this run's requests only; the transcript keeps its section patches.
	 */
	applyForcedPrompt(messages: AgentMessage[]): AgentMessage[] {
		const forced = this.runOptions?.forceSystemPrompt;
		if (forced === undefined) return messages;
		const system: SystemMessage = { role: "system", content: forced, timestamp: Date.now() };
		const tools = getCurrentTools(messages as { role: string }[] as never);
		if (tools.length > 0) system.toolsAdded = tools;
		return [system, ...messages.filter((message) => message.role !== "system")];
	}
}
