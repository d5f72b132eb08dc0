import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
	type AssistantMessage,
	type FauxModelDefinition,
	type FauxProviderHandle,
	type FauxResponseStep,
	fauxAssistantMessage,
} from "@tau/ai";
import type { AgentSessionEvent, AgentSessionRuntime, ExtensionFactory } from "@tau/coding-agent";
import type { ProgramStatus } from "@tau/tui";
import { VirtualTerminal } from "../../../tui/test/helpers/virtual-terminal.js";
import type { DefaultResourceLoaderOptions } from "../../src/core/resources/index.js";
import type { InteractiveModeOptions } from "../../src/modes/interactive/index.js";
import { InteractiveMode } from "../../src/modes/interactive/interactive-mode.js";
import { createFauxRuntime } from "../support/faux-runtime.js";
import { gate } from "../support/gate.js";

/** A virtual terminal that delivers keys synchronously (no escape-sequence timeout to wait for). */
export class KeyTerminal extends VirtualTerminal {
	private handler: ((data: string) => void) | undefined;
	readonly statuses: ProgramStatus[] = [];

	override start(onInput: (data: string) => void, onResize: () => void): void {
		this.handler = onInput;
		super.start(onInput, onResize);
	}

	override setProgramStatus(status: ProgramStatus): void {
		this.statuses.push(status);
	}

	press(data: string): void {
		if (!this.handler) throw new Error("terminal not started");
		this.handler(data);
	}
}

export const KEYS = {
	enter: "\r",
	escape: "\x1b",
	ctrlC: "\x03",
	ctrlD: "\x04",
	altEnter: "\x1b\r",
	ctrlO: "\x0f",
	backspace: "\x7f",
	down: "\x1b[B",
} as const;

export interface HarnessOptions {
	models?: FauxModelDefinition[];
	/** Scripted replies queued before the mode starts (for initial messages). */
	responses?: FauxResponseStep[];
	settings?: Record<string, unknown>;
	persisted?: boolean;
	/** Opens this session file instead of a new session. */
	sessionFile?: string;
	/** Opens `sessionFile` with message bodies read on first use, as the CLI's interactive mode does. */
	deferBodies?: boolean;
	loader?: Partial<DefaultResourceLoaderOptions>;
	/** One inline extension, loaded after `loader.extensionFactories`. */
	extension?: ExtensionFactory;
	mode?: Omit<InteractiveModeOptions, "terminal" | "exit" | "stdout" | "now">;
	/** Files for keybindings.json etc. in the agent dir, written before start. */
	agentFiles?: Record<string, string>;
	/** Files of the project (relative paths, folders created), written before start. */
	projectFiles?: Record<string, string>;
	columns?: number;
	rows?: number;
}

/** A response step that waits until the test opens it, or fails when the run is aborted. */
export function gatedStep(message: AssistantMessage): {
	step: FauxResponseStep;
	started: Promise<void>;
	open: () => void;
} {
	const { started, open, wait } = gate();
	return {
		started,
		open,
		step: async (_context, options) => {
			const signal = options?.signal;
			await Promise.race([
				wait(),
				new Promise<void>((resolve) => {
					if (signal?.aborted) resolve();
					signal?.addEventListener("abort", () => resolve(), { once: true });
				}),
			]);
			if (signal?.aborted) throw new Error("aborted");
			return message;
		},
	};
}

/** `runInteractiveMode` over a real runtime on the faux provider, in a virtual terminal. */
export class InteractiveHarness {
	readonly terminal: KeyTerminal;
	stdout = "";
	exitCode: number | undefined;
	clock = 1_000_000;
	exited!: Promise<number>;
	mode!: InteractiveMode;
	private readonly events: AgentSessionEvent[] = [];
	private waiters: { predicate: (event: AgentSessionEvent) => boolean; resolve: () => void }[] = [];

	private constructor(
		readonly runtime: AgentSessionRuntime,
		readonly faux: FauxProviderHandle,
		readonly cwd: string,
		readonly agentDir: string,
		options: HarnessOptions,
	) {
		this.terminal = new KeyTerminal(options.columns ?? 100, options.rows ?? 40);
	}

	static async start(options: HarnessOptions = {}): Promise<InteractiveHarness> {
		const root = mkdtempSync(join(tmpdir(), "tau-interactive-"));
		const cwd = join(root, "project");
		const agentDir = join(root, "agent");
		mkdirSync(cwd, { recursive: true });
		mkdirSync(agentDir, { recursive: true });
		for (const [name, content] of Object.entries(options.agentFiles ?? {}))
			writeFileSync(join(agentDir, name), content);
		for (const [name, content] of Object.entries(options.projectFiles ?? {})) {
			mkdirSync(dirname(join(cwd, name)), { recursive: true });
			writeFileSync(join(cwd, name), content);
		}
		const { runtime, faux } = await createFauxRuntime({ ...options, cwd, agentDir });
		if (options.responses) faux.setResponses(options.responses);
		const harness = new InteractiveHarness(runtime, faux, cwd, agentDir, options);
		harness.track();
		harness.mode = new InteractiveMode(runtime, {
			tuiMode: "regular",
			...options.mode,
			terminal: harness.terminal,
			stdout: {
				isTTY: true,
				write: (text) => {
					harness.stdout += text;
				},
			},
			exit: (code) => {
				harness.exitCode = code;
			},
			now: () => harness.clock,
		});
		harness.exited = harness.mode.run();
		// A start that fails rejects before a test can await it; the test still sees the rejection.
		harness.exited.catch(() => {});
		await harness.settleMicrotasks();
		return harness;
	}

	/** Subscribes to every session the runtime creates (re-subscribing after replacements). */
	private track(): void {
		let current = this.runtime.session;
		let off = current.subscribe((event) => this.record(event));
		const poll = () => {
			if (this.runtime.session !== current) {
				off();
				current = this.runtime.session;
				off = current.subscribe((event) => this.record(event));
			}
		};
		this.pollSession = poll;
	}

	private pollSession: () => void = () => {};

	private record(event: AgentSessionEvent): void {
		this.events.push(event);
		for (const waiter of [...this.waiters]) {
			if (waiter.predicate(event)) {
				this.waiters.splice(this.waiters.indexOf(waiter), 1);
				waiter.resolve();
			}
		}
	}

	/** Resolves on the next session event matching `predicate` (after `since` events). */
	waitForEvent(predicate: (event: AgentSessionEvent) => boolean, since = this.events.length): Promise<void> {
		this.pollSession();
		if (this.events.slice(since).some(predicate)) return Promise.resolve();
		return new Promise((resolve) => this.waiters.push({ predicate, resolve }));
	}

	/** Queues `reply` after any queued responses, submits `prompt` and waits for the run to settle. */
	async answer(prompt: string, reply: string): Promise<void> {
		this.faux.appendResponses([fauxAssistantMessage(reply)]);
		const since = this.eventCount;
		this.submit(prompt);
		await this.waitForEvent((event) => event.type === "agent_settled", since);
	}

	get eventCount(): number {
		return this.events.length;
	}

	/** Lets pending promise callbacks (command handlers, session switches) run. */
	async settleMicrotasks(rounds = 20): Promise<void> {
		for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
		this.pollSession();
	}

	/**
	 * Yields until `predicate` holds, for work outside the process (child shells, lazy imports). The
	 * bound only turns a hang into a failure; no result depends on how long anything takes.
	 */
	async until(predicate: () => boolean | Promise<boolean>, rounds = 2000): Promise<void> {
		for (let i = 0; i < rounds; i++) {
			this.pollSession();
			if (await predicate()) return;
			await new Promise<void>((resolve) => setTimeout(resolve, 5));
		}
		throw new Error("condition not reached");
	}

	/** Conversation roles (the system message aside). */
	roles(): string[] {
		return this.runtime.session.messages.map((message) => message.role).filter((role) => role !== "system");
	}

	type(text: string): void {
		for (const char of text) this.terminal.press(char);
	}

	submit(text: string): void {
		this.type(text);
		this.terminal.press(KEYS.enter);
	}

	/** Renders now and returns what the terminal shows (scrollback and viewport). */
	async screen(): Promise<string> {
		await this.settleMicrotasks(2);
		if (this.exitCode === undefined) this.mode.tui.renderNow();
		await this.terminal.flush();
		return [...this.terminal.getScrollback(), ...this.terminal.getViewport()].join("\n");
	}

	async viewport(): Promise<string[]> {
		await this.screen();
		return this.terminal.getViewport();
	}

	async close(): Promise<void> {
		if (this.exitCode === undefined) await this.mode.quit();
		rmSync(join(this.cwd, ".."), { recursive: true, force: true });
	}
}
