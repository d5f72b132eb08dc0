import {
	type AssistantMessage,
	type FauxModelDefinition,
	type FauxProviderHandle,
	type FauxResponseStep,
	fauxProvider,
} from "@tau/ai";
import {
	type AgentSession,
	type AgentSessionEvent,
	type CreateAgentSessionOptions,
	defaultExtensionLoader,
	type ExtensionFactory,
	type ModelRuntime,
	type SessionManager,
	SettingsManager,
} from "@tau/coding-agent";
import type { DefaultResourceLoaderOptions } from "../../src/core/resources/index.js";
import {
	createIsolatedSession,
	isolatedModelRuntime,
	tempAgentDir,
	tempDir,
	withExtension,
} from "../support/isolated-session.js";

export interface Harness {
	cwd: string;
	agentDir: string;
	faux: FauxProviderHandle;
	session: AgentSession;
	events: AgentSessionEvent[];
	/** Every request context the provider received, in order. */
	requests: { messages: { role: string }[] }[];
	sleeps: number[];
	modelRuntime: ModelRuntime;
	sessionManager: SessionManager;
	settingsManager: SettingsManager;
}

export interface HarnessOptions {
	settings?: Record<string, unknown>;
	models?: FauxModelDefinition[];
	loader?: Partial<DefaultResourceLoaderOptions>;
	/** One inline extension, loaded after `loader.extensionFactories` (the common case of a test). */
	extension?: ExtensionFactory;
	session?: Partial<CreateAgentSessionOptions>;
	sessionManager?: SessionManager;
	/** Built for the harness' own dirs (default: in-memory settings from `settings`). */
	settingsManager?: (dirs: { cwd: string; agentDir: string }) => SettingsManager;
	cwd?: string;
}

/** A session over the faux provider with in-memory settings and an isolated resource loader. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
	const cwd = options.cwd ?? tempDir();
	const agentDir = tempAgentDir();
	const faux = fauxProvider({ models: options.models ?? [{ id: "faux-1" }] });
	const modelRuntime = isolatedModelRuntime({ faux: faux.provider });
	const sleeps: number[] = [];
	const { session, sessionManager, settingsManager } = await createIsolatedSession({
		cwd,
		agentDir,
		modelRuntime,
		model: faux.getModel(),
		settingsManager:
			options.settingsManager?.({ cwd, agentDir }) ??
			SettingsManager.inMemory(
				{ retry: { enabled: true, maxRetries: 3, baseDelayMs: 2000 }, ...options.settings },
				{ projectTrusted: false },
			),
		...(options.sessionManager ? { sessionManager: options.sessionManager } : {}),
		loader: { loadExtensions: defaultExtensionLoader, ...withExtension(options.loader, options.extension) },
		session: {
			retrySleep: async (ms, signal) => {
				sleeps.push(ms);
				if (signal.aborted) throw new Error("aborted");
			},
			...options.session,
		},
	});
	const events: AgentSessionEvent[] = [];
	session.subscribe((event) => events.push(event));
	const requests: Harness["requests"] = [];
	const original = session.agent.streamFunction;
	session.agent.streamFunction = (model, context, streamOptions) => {
		requests.push(structuredClone({ messages: context.messages }));
		return original(model, context, streamOptions);
	};
	return {
		cwd,
		agentDir,
		faux,
		session,
		events,
		requests,
		sleeps,
		modelRuntime,
		sessionManager,
		settingsManager,
	};
}

export function eventTypes(events: readonly AgentSessionEvent[]): string[] {
	return events.map((event) => {
		if (event.type === "message_start" || event.type === "message_end") {
			return `${event.type}(${(event.message as { role: string }).role})`;
		}
		return event.type;
	});
}

export function textOfMessage(message: object): string {
	const content = (message as { content?: unknown }).content;
	if (typeof content === "string") return content;
	return (content as { type: string; text?: string }[])
		.flatMap((block) => (block.type === "text" && block.text ? [block.text] : []))
		.join("");
}

/** A faux step that waits until `release()` is called, to hold a run open deterministically. */
/** A faux response that reports it started, then waits for `hold` to be released before answering. */
export function heldResponse(hold: ReturnType<typeof gate>, message: AssistantMessage): FauxResponseStep {
	return async () => {
		hold.markStarted();
		await hold.wait;
		return message;
	};
}

export function gate(): { wait: Promise<void>; release: () => void; started: Promise<void>; markStarted: () => void } {
	let release = () => {};
	let markStarted = () => {};
	const wait = new Promise<void>((resolve) => {
		release = resolve;
	});
	const started = new Promise<void>((resolve) => {
		markStarted = resolve;
	});
	return { wait, release, started, markStarted };
}

/** An extension with a `/note` command and an `input` handler that log to `seen` (`command:<args>`, `input:<text>`). */
export function noteCommandAndInputLog(seen: string[]): ExtensionFactory {
	return (pi) => {
		pi.registerCommand("note", {
			handler: async (args) => {
				seen.push(`command:${args}`);
			},
		});
		pi.on("input", (event) => {
			seen.push(`input:${event.text}`);
			return undefined;
		});
	};
}
