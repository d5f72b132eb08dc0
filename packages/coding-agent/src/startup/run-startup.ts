import { sanitizeTerminalText } from "@tau/tui/sanitize";
import type { ParsedArgs } from "../cli/args.js";
import { renderHelp } from "../cli/help.js";
import { NO_MODELS_GUIDANCE, renderModelList } from "../cli/list-models.js";
import { APP_NAME } from "../config/app-identity.js";
import { getAgentDir, isOffline, isTruthyEnvFlag, SettingsManager } from "../config/index.js";
import { runStartupMigrations } from "../config/migrations/startup-migrations.js";
import { resolveSessionDir } from "../core/session/index.js";
import type { StdoutTakeover } from "../modes/shared/index.js";
import { type AgentSessionRuntime, createAgentSessionRuntime, MissingSessionCwdError } from "../sdk/index.js";
import { createCliRuntimeFactory, hasRealModel, registeredFlags } from "./create-runtime.js";
import { type Diagnostic, StartupError, writeDiagnostic } from "./diagnostics.js";
import { useHttpProxy } from "./http-proxy.js";
import { buildInitialInput, readFileArguments, readPipedStdin } from "./initial-message.js";
import { chooseSession, terminalChoiceIo } from "./session-choice.js";
import { selectSession, validateSessionFlags } from "./session-selection.js";

const CATALOG_REFRESH_TIMEOUT_MS = 15_000;

export type AppMode = "interactive" | "print" | "json" | "rpc";

/** Mode resolution (docs/design/cli.md#mode-resolution). */
export function resolveAppMode(
	args: Pick<ParsedArgs, "mode" | "print">,
	terminals: { stdin: boolean; stdout: boolean },
): AppMode {
	if (args.mode === "rpc") return "rpc";
	if (args.mode === "json") return "json";
	if (args.print || !terminals.stdin || !terminals.stdout) return "print";
	return "interactive";
}

/** Writes the diagnostics; if one is an error, adds the `-ne` hint for extension failures and fails. */
function reportStartupDiagnostics(diagnostics: readonly Diagnostic[]): void {
	for (const diagnostic of diagnostics) writeDiagnostic(diagnostic);
	const errors = diagnostics.filter((diagnostic) => diagnostic.type === "error");
	if (errors.length === 0) return;
	if (errors.some((error) => error.message.startsWith("Failed to load extension"))) {
		const hint = `Hint: Start without extensions using "${APP_NAME} -ne".`;
		process.stderr.write(`${process.stderr.isTTY && !process.env.NO_COLOR ? `\x1b[33m${hint}\x1b[0m` : hint}\n`);
	}
	throw new StartupError("", 1);
}

/**
 * Startup steps 1–20 of docs/design/cli.md#startup-steps, ending in the mode's run.
 * Returns the process exit code; a `StartupError` with a message was not yet reported.
 */
export async function runStartup(
	args: ParsedArgs,
	mode: AppMode,
	takeover: StdoutTakeover | undefined,
): Promise<number> {
	if (mode === "rpc" && args.fileArgs.length > 0)
		throw new StartupError("@file arguments are not supported in RPC mode");
	validateSessionFlags(args);

	const processCwd = process.cwd();
	const agentDir = getAgentDir();
	const diagnostics: Diagnostic[] = [];
	const migrations = runStartupMigrations(agentDir, processCwd);
	for (const message of migrations.warnings) diagnostics.push({ type: "warning", message });

	const userSettings = SettingsManager.create(processCwd, agentDir, { projectTrusted: false });
	// Step 10, taken before anything can reach the network (a catalog refresh, an extension, MCP).
	await useHttpProxy(userSettings.getHttpProxy());
	const sessionDir = resolveSessionDir({
		cwd: processCwd,
		...(args.sessionDir !== undefined ? { cliSessionDir: args.sessionDir } : {}),
		...(userSettings.getSessionDir() ? { userSetting: userSettings.getSessionDir() } : {}),
		projectTrusted: false,
	});
	const sessionManager = await selectSession(args, {
		cwd: processCwd,
		agentDir,
		sessionDir: sessionDir.dir,
		hasTerminal: process.stdin.isTTY === true && process.stdout.isTTY === true,
		...(mode === "interactive"
			? { choose: (prefix, matches) => chooseSession(prefix, matches, terminalChoiceIo()), deferBodies: true }
			: {}),
	});
	if (args.name !== undefined) sessionManager.appendSessionInfo(args.name.trim());

	let runtime: AgentSessionRuntime;
	try {
		runtime = await createAgentSessionRuntime(createCliRuntimeFactory(args, processCwd, mode), {
			cwd: sessionManager.getCwd(),
			agentDir,
			sessionManager,
		});
	} catch (error) {
		if (error instanceof MissingSessionCwdError) {
			throw new StartupError(
				`Session working directory does not exist: ${error.cwd}. Start from an existing directory or use --fork.`,
			);
		}
		throw error;
	}
	diagnostics.push(...runtime.takeUnreportedDiagnostics());

	// --help and --list-models always print to stdout (tau's fix of pi's quirk). Model ids can come
	// from a provider's catalog: a terminal gets them filtered (docs/security.md).
	const printPlain = async (raw: string) => {
		for (const diagnostic of diagnostics) writeDiagnostic(diagnostic);
		const text = process.stdout.isTTY ? sanitizeTerminalText(raw, { keepStyle: true }) : raw;
		if (takeover) await takeover.writer.write(text);
		else process.stdout.write(text);
		await runtime.dispose();
		return 0;
	};
	if (args.help) {
		const flags = registeredFlags(runtime.services.resourceLoader.getExtensions().extensions).map((flag) => ({
			name: flag.name,
			type: flag.options.type === "string" ? ("string" as const) : ("boolean" as const),
			...(flag.options.description ? { description: flag.options.description } : {}),
			extensionPath: flag.extensionPath,
		}));
		return printPlain(renderHelp(flags));
	}
	// A broken models.json (or one broken provider entry) only disables what it defines: say so in every mode.
	const modelsError = runtime.services.modelRuntime.getError();
	if (modelsError) diagnostics.push({ type: "warning", message: `errors loading models.json:\n${modelsError}` });
	if (args.listModels !== undefined) {
		const available = await runtime.services.modelRuntime.getAvailable();
		return printPlain(renderModelList(available, args.listModels === true ? undefined : args.listModels));
	}

	try {
		const stdin = mode === "rpc" ? undefined : await readPipedStdin();
		const files = readFileArguments(args.fileArgs, processCwd);
		const input = buildInitialInput({
			...(stdin !== undefined ? { stdin } : {}),
			fileText: files.text,
			images: files.images,
			messages: args.messages,
		});
		if (mode === "interactive" || !takeover) {
			// The interactive mode shows diagnostics and the no-model guidance in the chat (steps 16–17).
			const { runInteractiveMode } = await import("../modes/interactive/index.js");
			return await runInteractiveMode(runtime, {
				...input,
				...(args.tuiMode ? { tuiMode: args.tuiMode } : {}),
				verbose: args.verbose,
				...(args.useTheme ? { settingsOverrides: { theme: args.useTheme } } : {}),
				diagnostics,
			});
		}
		reportStartupDiagnostics(diagnostics);
		if (!hasRealModel(runtime.session.model, runtime.services.modelRuntime)) {
			// RPC clients may configure a model over the protocol; the other modes cannot run without one.
			if (mode !== "rpc") throw new StartupError(NO_MODELS_GUIDANCE);
			writeDiagnostic({ type: "warning", message: NO_MODELS_GUIDANCE });
		}
		if (isTruthyEnvFlag(process.env.TAU_STARTUP_BENCHMARK)) {
			throw new StartupError("TAU_STARTUP_BENCHMARK is only supported in interactive mode");
		}
		return await dispatch(mode, runtime, input, takeover, args.tauEvents);
	} catch (error) {
		await runtime.dispose().catch(() => undefined);
		throw error;
	}
}

async function dispatch(
	mode: AppMode,
	runtime: AgentSessionRuntime,
	input: ReturnType<typeof buildInitialInput>,
	takeover: StdoutTakeover,
	tauEvents: boolean,
): Promise<number> {
	switch (mode) {
		case "json": {
			const { runJsonMode } = await import("../modes/json/json-mode.js");
			return runJsonMode(runtime, input, takeover, { tauEvents });
		}
		case "rpc": {
			if (!isOffline()) {
				// Step 19: refresh model catalogs in the background; failures only mean older catalogs.
				void runtime.services.modelRuntime
					.refresh({ signal: AbortSignal.timeout(CATALOG_REFRESH_TIMEOUT_MS) })
					.catch(() => undefined);
			}
			const { runRpcMode } = await import("../modes/rpc/index.js");
			return runRpcMode(runtime, { writer: takeover.writer, tauEvents });
		}
		default: {
			const { runTextMode } = await import("../modes/print/print-mode.js");
			return runTextMode(runtime, input, takeover);
		}
	}
}
