import { type Component, type KeybindingsManager, type KeyId, matchesKey } from "@tau/tui";
import type { AgentSession } from "../../../core/agent-session/agent-session.js";
import { errorMessage } from "../../../core/errors.js";
import {
	type Extension,
	findEntryRenderer,
	findMessageRenderer,
	type MarkdownTransformContext,
	type RegisteredShortcut,
	resolveShortcuts,
	transformMarkdown,
} from "../../../core/extensions/index.js";
import { loadedExtensions, toolRenderersFor } from "../../../core/extensions/registry/renderers.js";
import type { Theme } from "../../../core/resources/index.js";
import type { CustomEntry, CustomMessage } from "../../../core/session/index.js";
import type { ToolRendering } from "../components/tool-execution.js";
import { boundKey } from "../keybindings/app-keybindings.js";
import { styleKeyHint } from "../keybindings/key-hints.js";

function extensionsOf(session: AgentSession): Extension[] {
	return loadedExtensions(session.resourceLoader);
}

/** Extension shortcuts and renderers as the interactive mode uses them. */
export class ExtensionHooks {
	private shortcuts = new Map<string, RegisteredShortcut>();
	/** Extensions whose Markdown transformer failed, per runner: reported once, not on every frame. */
	private failedTransformers = new WeakMap<object, Set<string>>();

	constructor(
		private readonly keys: KeybindingsManager,
		private readonly theme: () => Theme,
		private readonly report: (kind: "warning" | "error", message: string) => void,
	) {}

	/** Resolves the session's shortcuts against the built-in bindings (reserved actions stay built-in). */
	bindShortcuts(session: AgentSession): void {
		const builtin = new Map<string, string>();
		for (const [action, keys] of Object.entries(this.keys.getResolvedBindings())) {
			for (const key of Array.isArray(keys) ? keys : [keys]) if (!builtin.has(key)) builtin.set(key, action);
		}
		const resolved = resolveShortcuts(extensionsOf(session), builtin);
		this.shortcuts = resolved.shortcuts;
		for (const warning of resolved.warnings) this.report("warning", warning);
	}

	/** Runs the shortcut bound to `data`, if any; returns whether one was. */
	runShortcut(data: string, session: AgentSession): boolean {
		for (const [key, shortcut] of this.shortcuts) {
			if (!matchesKey(data, key as KeyId)) continue;
			Promise.resolve()
				.then(() => shortcut.options.handler(session.extensionRunner.createContext()))
				.catch((error) => this.report("error", `Shortcut ${shortcut.key} failed: ${errorMessage(error)}`));
			return true;
		}
		return false;
	}

	renderMessage(session: AgentSession, message: CustomMessage, expanded: boolean): Component | undefined {
		return this.guard(() =>
			findMessageRenderer(extensionsOf(session), message.customType)?.(
				message,
				{ expanded, outputPad: session.settingsManager.getOutputPad(), ...this.keyHints() },
				this.theme(),
			),
		);
	}

	renderEntry(session: AgentSession, entry: CustomEntry, expanded: boolean): Component | undefined {
		return this.guard(() =>
			findEntryRenderer(extensionsOf(session), entry.customType)?.(
				entry,
				{ expanded, ...this.keyHints() },
				this.theme(),
			),
		);
	}

	/**
	 * The `registerMarkdownTransformer` chain of the session's current extensions (read on every call,
	 * so `/reload` takes effect). A failure is reported as an extension error after the render pass.
	 */
	transformMarkdown(session: AgentSession, markdown: string, ctx: MarkdownTransformContext): string {
		return transformMarkdown(extensionsOf(session), markdown, ctx, (extensionPath, error) => {
			const runner = session.extensionRunner;
			const failed = this.failedTransformers.get(runner) ?? new Set<string>();
			this.failedTransformers.set(runner, failed);
			if (failed.has(extensionPath)) return;
			failed.add(extensionPath);
			queueMicrotask(() => runner.runtime.report(extensionPath, "markdown_transform", error));
		});
	}

	/** Renderers from `registerToolRenderer` resolvers and the tool's own definition, if any. */
	toolRendering(session: AgentSession, toolName: string, requestRender: () => void): ToolRendering | undefined {
		const renderers = toolRenderersFor(extensionsOf(session), toolName, () => session.getToolDefinition(toolName));
		if (!renderers) return undefined;
		return {
			renderers,
			cwd: session.cwd,
			showImages: session.settingsManager.getShowImages(),
			outputPad: session.settingsManager.getOutputPad(),
			...this.keyHints(),
			requestRender,
		};
	}

	private keyHints(): { keyText(id: string): string; keyHint(id: string, description: string): string } {
		return {
			keyText: (id) => boundKey(this.keys, id),
			keyHint: (id, description) => styleKeyHint(this.theme(), boundKey(this.keys, id), description),
		};
	}

	/** A renderer that throws is reported and the built-in rendering is used instead. */
	private guard(render: () => Component | undefined): Component | undefined {
		try {
			return render();
		} catch (error) {
			this.report("error", `Extension renderer failed: ${errorMessage(error)}`);
			return undefined;
		}
	}
}
