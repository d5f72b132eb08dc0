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
	/** The inputs of the last `patchFor` that found the transcript current (see `patchFor`). */
	private current: PatchInputs | undefined;
	private runSections:
		| {
				run: NormalizedBuildSystemPromptOptions;
				names: string;
				tools: readonly Tool[];
				sections: Readonly<Record<string, string>>;
		  }
		| undefined;

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
		return buildSystemPrompt(this.currentOptions());
	}

	/**
	 * The base options, or during a run the run's options (as `before_agent_start` left them) with the
	 * current active tools: a tool activated mid-run brings its own snippet and guidelines.
	 */
	private currentOptions(): BuildSystemPromptOptions {
		const run = this.runOptions;
		if (!run) return this.baseOptions();
		const selectedTools = this.options.tools.getActiveToolNames();
		const atStart = new Set(run.selectedTools);
		const added = selectedTools.filter((name) => !atStart.has(name));
		if (added.length === 0) return { ...run, selectedTools };
		const metadata = this.options.tools.promptMetadata();
		const toolSnippets = { ...run.toolSnippets };
		const toolGuidelines = { ...run.toolGuidelines };
		for (const name of added) {
			const snippet = metadata.snippets[name];
			if (snippet !== undefined) toolSnippets[name] = snippet;
			const rules = metadata.guidelines[name];
			if (rules !== undefined) toolGuidelines[name] = rules;
		}
		return { ...run, selectedTools, toolSnippets, toolGuidelines };
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

	/**
	 * The system message to append before the next request, or undefined when the transcript is current.
	 * The update depends only on the sections, the declared tools and the transcript's system messages;
	 * when all three equal those of a call that found the transcript current, so does this one (which
	 * spares the tool-declaration diff on every turn of a long run).
	 */
	patchFor(transcript: readonly { role: string }[]): SystemMessage | undefined {
		const tools = this.options.declared();
		const inputs: PatchInputs = {
			sections: this.sectionsFor(tools),
			tools,
			systemMessages: transcript.filter((message) => message.role === "system"),
		};
		if (this.current && samePatchInputs(this.current, inputs)) return undefined;
		const update = createSystemPromptUpdate(
			transcript,
			{ sections: inputs.sections, tools: inputs.tools },
			Date.now(),
		);
		this.current = update ? undefined : inputs;
		return update;
	}

	/**
	 * The sections of the current options. Within a run they change only with the active tools (names,
	 * or a re-registered tool, which is a new declared object): one build serves the turns in between.
	 */
	private sectionsFor(tools: readonly Tool[]): Readonly<Record<string, string>> {
		const run = this.runOptions;
		const names = this.options.tools.getActiveToolNames().join("\n");
		const memo = this.runSections;
		if (run && memo?.run === run && memo.names === names && sameItems(memo.tools, tools)) return memo.sections;
		const { forceSystemPrompt: _forced, ...options } = this.currentOptions();
		const sections = buildSystemPromptSections(options);
		this.runSections = run ? { run, names, tools, sections } : undefined;
		return sections;
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

interface PatchInputs {
	sections: Readonly<Record<string, string>>;
	tools: readonly Tool[];
	systemMessages: readonly object[];
}

function samePatchInputs(a: PatchInputs, b: PatchInputs): boolean {
	return (
		sameItems(a.tools, b.tools) &&
		sameItems(a.systemMessages, b.systemMessages) &&
		sameSections(a.sections, b.sections)
	);
}

/** Element-wise identity: a re-declared tool or a new (or replaced) system message is a change. */
function sameItems(a: readonly object[], b: readonly object[]): boolean {
	return a.length === b.length && a.every((item, index) => item === b[index]);
}

function sameSections(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
	const names = Object.keys(a);
	return names.length === Object.keys(b).length && names.every((name) => a[name] === b[name]);
}
