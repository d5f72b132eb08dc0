/**
 * `tau --mode rpc` (docs/design/rpc.md, docs/design/cli.md#rpc-mode).
 *
 *   runRpcMode(runtime: AgentSessionRuntime, options?: RpcModeOptions): Promise<number>
 *
 * Takes over stdout, binds extensions with the RPC UI, answers JSONL commands from stdin and
 * streams session events until stdin ends or a signal arrives. The promise resolves with the exit
 * code after the orderly shutdown; by default `process.exit(code)` is then called too (pass `exit`
 * to keep the process, as in-process tests do).
 */
import type { AgentSession } from "../../core/agent-session/agent-session.js";
import { errorMessage } from "../../core/errors.js";
import type { ExtensionCommandContextActions } from "../../core/extensions/index.js";
import { resolveTheme } from "../../core/resources/themes/builtin-theme.js";
import type { AgentSessionRuntime } from "../../sdk/agent-session-runtime.js";
import {
	attachJsonlLineReader,
	type RawWriter,
	serializeJsonEvent,
	serializeJsonLine,
	takeOverStdout,
} from "../shared/index.js";
import { commandHandlers, isCommandType, type RpcCommandHost } from "./command-handlers.js";
import { DirectBash } from "./direct-bash.js";
import { RpcExtensionUI } from "./extension-ui.js";
import type { RpcCommand, RpcExtensionUIResponse, RpcResponse } from "./types.js";

export interface RpcModeOptions {
	/** Command stream; default `process.stdin`. */
	input?: NodeJS.ReadableStream;
	/** Protocol output; default a writer over the real stdout after taking stdout over. */
	writer?: RawWriter;
	/** Diagnostics; default `process.stderr`. */
	stderr?: (text: string) => void;
	/** Install SIGINT/SIGTERM/SIGHUP handlers; default true when reading `process.stdin`. */
	handleSignals?: boolean;
	/** Called with the exit code after shutdown; default `process.exit`. */
	exit?: (code: number) => void;
	/** Stream tau-only session events from the start (`--tau-events`; the client may toggle it). */
	tauEvents?: boolean;
}

const INVALID_COMMAND = 'Invalid command: expected a JSON object with a string "type" field';
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * Runs tau in RPC mode: reads commands from stdin and writes responses and session events to stdout until the
 * input closes; resolves to the exit code.
 */
export function runRpcMode(runtime: AgentSessionRuntime, options: RpcModeOptions = {}): Promise<number> {
	const input = options.input ?? process.stdin;
	const takeover = options.writer ? undefined : takeOverStdout();
	const writer = options.writer ?? (takeover as NonNullable<typeof takeover>).writer;
	const stderr = options.stderr ?? ((text: string) => void process.stderr.write(text));
	const exit = options.exit ?? ((code: number) => process.exit(code));
	const send = (record: unknown) => void writer.write(serializeJsonLine(record));

	// Extensions style text for the client's terminal with the configured theme, as in the TUI.
	const ui = new RpcExtensionUI(send, () => {
		const { session } = runtime;
		return resolveTheme(session.settingsManager.getTheme(), session.resourceLoader.getThemes().themes).theme;
	});

	let unsubscribe: () => void = () => {};
	let unsubscribeEvents: () => void = () => {};
	let tauEvents = options.tauEvents === true;
	/** Forwards the session's events; re-subscribed when the client toggles tau-only events. */
	const subscribeEvents = (session: AgentSession) => {
		unsubscribeEvents();
		unsubscribeEvents = session.subscribe(
			(event) => {
				void writer.write(serializeJsonEvent(event));
				if (event.type === "agent_settled") maybeShutdownOnRequest();
			},
			{ tauEvents },
		);
	};
	let detachInput: () => void = () => {};
	let inputAttached = false;
	const commandsInFlight = new Set<Promise<void>>();
	let runsInFlight = 0;
	let shutdownRequested = false;
	let shuttingDown = false;
	let finished: (code: number) => void = () => {};
	const done = new Promise<number>((resolve) => {
		finished = resolve;
	});

	const bash = new DirectBash();
	const host: RpcCommandHost = {
		runtime,
		bash,
		bashOutput: (id, delta) => send({ type: "bash_execution_update", ...(id !== undefined ? { id } : {}), delta }),
		trackRun: (run) => {
			runsInFlight++;
			void run.finally(() => {
				runsInFlight--;
				maybeShutdownOnRequest();
			});
		},
		reportLateFailure: (error) => stderr(`Error: ${errorMessage(error)}\n`),
		setTauEvents: (enabled) => {
			tauEvents = enabled;
			subscribeEvents(runtime.session);
		},
	};

	const commandContextActions: ExtensionCommandContextActions = {
		waitForIdle: () => runtime.session.waitForIdle(),
		newSession: (opts) => runtime.newSession(opts ?? {}),
		fork: (entryId, opts) => runtime.fork(entryId, opts ?? {}),
		navigateTree: async () => {
			throw new Error("Tree navigation is not available in RPC mode");
		},
		switchSession: (sessionPath, opts) => runtime.switchSession(sessionPath, opts ?? {}),
		reload: async () => {
			throw new Error("Reload is not available in RPC mode");
		},
	};

	function reportDiagnostics(): void {
		for (const diagnostic of runtime.takeUnreportedDiagnostics()) {
			const prefix = diagnostic.type === "error" ? "Error: " : diagnostic.type === "warning" ? "Warning: " : "";
			stderr(`${prefix}${diagnostic.message}\n`);
		}
	}

	/** Subscribe before binding extensions so events of `session_start` handlers reach the client. */
	async function bindSession(session: AgentSession): Promise<void> {
		unsubscribe();
		subscribeEvents(session);
		// The agent awaits its listeners: waiting for the queue here is what stalls a run for a slow reader.
		const offAgent = session.agent.subscribe(() => writer.waitForBackpressure());
		unsubscribe = () => {
			unsubscribeEvents();
			offAgent();
		};
		await session.bindExtensions({
			uiContext: ui.createContext(),
			mode: "rpc",
			commandContextActions,
			shutdownHandler: () => {
				shutdownRequested = true;
				setImmediate(maybeShutdownOnRequest);
			},
			onError: (error) =>
				send({
					type: "extension_error",
					extensionPath: error.extensionPath,
					event: error.event,
					error: error.error,
				}),
		});
		reportDiagnostics();
	}

	function maybeShutdownOnRequest(): void {
		if (!shutdownRequested || !inputAttached || commandsInFlight.size > 0 || runsInFlight > 0) return;
		if (!runtime.session.isIdle) return;
		void shutdown(0, true);
	}

	/** `answerPending`: let commands already read (e.g. a final line at EOF) respond first. */
	async function shutdown(code: number, flush: boolean, answerPending = false): Promise<void> {
		if (shuttingDown) return;
		shuttingDown = true;
		detachInput();
		if (answerPending) await Promise.allSettled([...commandsInFlight]);
		unsubscribe();
		try {
			await runtime.dispose();
		} catch (error) {
			stderr(`Error: ${errorMessage(error)}\n`);
		}
		if (flush) await writer.flush();
		removeSignalHandlers();
		finished(code);
		exit(code);
	}

	function respond(response: RpcResponse): void {
		send(response);
	}

	function dispatch(command: RpcCommand): void {
		const running = execute(command).finally(() => {
			commandsInFlight.delete(running);
			maybeShutdownOnRequest();
		});
		commandsInFlight.add(running);
	}

	async function execute(command: RpcCommand): Promise<void> {
		const { id, type } = command;
		try {
			const handler = commandHandlers[type] as (
				command: RpcCommand,
				session: AgentSession,
				host: RpcCommandHost,
			) => unknown;
			const data = await handler(command, runtime.session, host);
			respond({ ...(id !== undefined ? { id } : {}), type: "response", command: type, success: true, data });
		} catch (error) {
			respond({
				...(id !== undefined ? { id } : {}),
				type: "response",
				command: type,
				success: false,
				error: errorMessage(error),
			});
		}
	}

	function handleLine(line: string): void {
		if (line.trim() === "") return;
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch (error) {
			respond({
				type: "response",
				command: "parse",
				success: false,
				error: `Failed to parse command: ${errorMessage(error)}`,
			});
			return;
		}
		if (
			typeof value !== "object" ||
			value === null ||
			Array.isArray(value) ||
			typeof (value as { type?: unknown }).type !== "string"
		) {
			const id = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : undefined;
			respond({
				...(typeof id === "string" ? { id } : {}),
				type: "response",
				command: "parse",
				success: false,
				error: INVALID_COMMAND,
			});
			return;
		}
		const record = value as { id?: string; type: string };
		if (record.type === "extension_ui_response") {
			ui.handleResponse(record as RpcExtensionUIResponse);
			return;
		}
		if (!isCommandType(record.type)) {
			respond({
				...(record.id !== undefined ? { id: record.id } : {}),
				type: "response",
				command: record.type,
				success: false,
				error: `Unknown command: ${record.type}`,
			});
			return;
		}
		dispatch(record as RpcCommand);
	}

	const signalHandlers = new Map<NodeJS.Signals, () => void>();
	let signalled = false;
	function installSignalHandlers(): void {
		for (const [signal, code] of Object.entries(SIGNAL_EXIT_CODES) as [keyof typeof SIGNAL_EXIT_CODES, number][]) {
			if (signal === "SIGHUP" && process.platform === "win32") continue;
			const handler = () => {
				// Only a second signal cuts the shutdown short; one arriving during an EOF shutdown lets it finish.
				if (signalled) {
					exit(code);
					return;
				}
				signalled = true;
				if (shuttingDown) return;
				// SIGHUP means the terminal went away but a reader may remain; SIGTERM does not wait for one.
				void shutdown(code, signal === "SIGHUP");
			};
			signalHandlers.set(signal, handler);
			process.on(signal, handler);
		}
	}
	function removeSignalHandlers(): void {
		for (const [signal, handler] of signalHandlers) process.off(signal, handler);
		signalHandlers.clear();
	}

	if (options.handleSignals ?? input === process.stdin) installSignalHandlers();
	runtime.setRebindSession((session) => bindSession(session));

	void (async () => {
		try {
			await bindSession(runtime.session);
		} catch (error) {
			stderr(`Error: ${errorMessage(error)}\n`);
			await shutdown(1, true);
			return;
		}
		if (shuttingDown) return;
		detachInput = attachJsonlLineReader(input, handleLine, () => void shutdown(0, true, true));
		inputAttached = true;
		if (input === process.stdin) process.stdin.resume();
		maybeShutdownOnRequest();
	})();

	return done;
}
