import type { ImageContent } from "@tau/ai";
import type { ExtensionRunner, InputSource, ResolvedCommand } from "../extensions/index.js";
import { expandResourceCommands, type ResourceLoader } from "../resources/index.js";

/** `/name args` naming a registered extension command. */
export function findExtensionCommand(
	runner: ExtensionRunner,
	text: string,
): { command: ResolvedCommand; args: string } | undefined {
	if (!text.startsWith("/")) return undefined;
	const space = text.indexOf(" ");
	const name = space < 0 ? text.slice(1) : text.slice(1, space);
	const command = runner.getCommand(name);
	if (!command) return undefined;
	return { command, args: space < 0 ? "" : text.slice(space + 1).trim() };
}

/**
 * Runs a command handler; its errors are extension errors (reported under the synthetic path
 * `command:<name>` with event `command`), and the input counts as handled either way.
 */
export async function runExtensionCommand(runner: ExtensionRunner, command: ResolvedCommand, args: string) {
	try {
		await command.options.handler(args, runner.createCommandContext());
	} catch (error) {
		runner.runtime.report(`command:${command.name}`, "command", error);
	}
}

export interface RawInput {
	text: string;
	images: ImageContent[] | undefined;
	source: InputSource;
	streamingBehavior: "steer" | "followUp" | undefined;
	expand: boolean;
}

/** The `input` event, then `/skill:` and prompt-template expansion (docs/design/session-runtime.md#prompt-pipeline). */
export async function expandInput(
	runner: ExtensionRunner,
	loader: ResourceLoader,
	raw: RawInput,
): Promise<"handled" | { text: string; images: ImageContent[] | undefined }> {
	let text = raw.text;
	let images = raw.images;
	if (runner.hasHandlers("input")) {
		const event: {
			text: string;
			source: InputSource;
			images?: ImageContent[];
			streamingBehavior?: "steer" | "followUp";
		} = { text, source: raw.source };
		if (images) event.images = images;
		if (raw.streamingBehavior) event.streamingBehavior = raw.streamingBehavior;
		const result = await runner.emitInput(event);
		if (result.action === "handled") return "handled";
		if (result.action === "transform") {
			text = result.text;
			if (result.images !== undefined) images = result.images;
		}
	}
	if (raw.expand) {
		const expanded = expandResourceCommands(text, {
			skills: loader.getSkills().skills,
			prompts: loader.getPrompts().prompts,
		});
		if (expanded.error) runner.runtime.report("<skill>", "skill_expansion", new Error(expanded.error));
		text = expanded.text;
	}
	return { text, images };
}

/** `steer` / `followUp` input: commands cannot be queued; `input` hooks and expansion run as for prompts. */
export async function expandQueuedInput(
	runner: ExtensionRunner,
	loader: ResourceLoader,
	raw: Omit<RawInput, "expand">,
): Promise<"handled" | { text: string; images: ImageContent[] | undefined }> {
	const command = findExtensionCommand(runner, raw.text);
	if (command) {
		throw new Error(
			`Extension command "/${command.command.invocationName}" cannot be queued. Use prompt() or execute the command when not streaming.`,
		);
	}
	return expandInput(runner, loader, { ...raw, expand: true });
}
