import { join } from "node:path";
import type { CredentialStore, ModelsStore, Provider } from "@tau/ai";
import { builtinProviders } from "@tau/ai/providers/all";
import { APP_NAME } from "../config/app-identity.js";
import { AuthStorage, FileModelsStore, ModelRuntime, ReadOnlyAuthStorage, SettingsManager } from "../config/index.js";
import { getAgentDir } from "../config/paths.js";
import { errorMessage } from "../core/errors.js";
import { openInBrowser } from "../core/platform/open-url.js";
import { registerExtensionProviders } from "./auth-extension-providers.js";
import { afterLogin } from "./auth-login-followups.js";
import {
	type AuthReport,
	type AuthTarget,
	evaluateAuth,
	ResolvingReadOnlyStore,
	resolveAuthTarget,
} from "./auth-status.js";
import type { MainIO } from "./main-io.js";
import {
	createTerminalInteraction,
	LoginCancelledError,
	type TerminalInput,
	type TerminalOutput,
} from "./terminal-interaction.js";

type AuthSubcommand = "login" | "logout" | "check" | "print-api-key" | "print-bearer-token";

interface SubcommandSpec {
	usage: string;
	flags: readonly string[];
	values: readonly string[];
	positionals: number;
}

const TARGET = "(--provider <p> | --model <m>)";

const SUBCOMMANDS: Record<AuthSubcommand, SubcommandSpec> = {
	login: {
		usage: `${APP_NAME} auth login <provider> [--api-key | --no-browser]`,
		flags: ["--api-key", "--no-browser"],
		values: [],
		positionals: 1,
	},
	logout: { usage: `${APP_NAME} auth logout <provider>`, flags: [], values: [], positionals: 1 },
	check: {
		usage: `${APP_NAME} auth check ${TARGET} [--json] [--credentials] [--no-refresh]`,
		flags: ["--json", "--credentials", "--no-refresh"],
		values: ["--provider", "--model"],
		positionals: 0,
	},
	"print-api-key": {
		usage: `${APP_NAME} auth print-api-key ${TARGET}`,
		flags: [],
		values: ["--provider", "--model"],
		positionals: 0,
	},
	"print-bearer-token": {
		usage: `${APP_NAME} auth print-bearer-token ${TARGET} [--min-expiry <30m|2h|…>]`,
		flags: [],
		values: ["--provider", "--model", "--min-expiry"],
		positionals: 0,
	},
};

const DETAILS = [
	"  login               Sign in (OAuth) or, with --api-key, store a key typed without echo",
	"                      --no-browser: never open a browser; show the URL or device code instead",
	"  logout              Remove the stored credential (exit 0 even when none was stored)",
	"  check               Print ready (exit 0), not_ready (exit 1) or invalid (exit 2)",
	"                      not_ready: no credential source; invalid: unknown provider or model,",
	"                      unreadable auth.json, a stored key whose $VAR/!command does not resolve,",
	"                      a stored credential type the provider cannot use, or a failed OAuth refresh",
	"                      --json: {status, provider, reason?, credentials?}; --credentials adds the",
	"                      resolved auth to ready JSON; --no-refresh: read-only, expired OAuth is not_ready",
	"  print-api-key       Print the provider's resolved API key on stdout",
	"  print-bearer-token  Print the OAuth access token, refreshed when it expires within --min-expiry",
];

function overallUsage(): string {
	const lines = Object.values(SUBCOMMANDS).map((spec) => `  ${spec.usage}`);
	return ["Usage:", ...lines, "", "Commands:", ...DETAILS, ""].join("\n");
}

interface ParsedAuthArgs {
	help: boolean;
	flags: Set<string>;
	values: Map<string, string>;
	positionals: string[];
}

/** A malformed command line: `unknownOption` always exits 1, other usage errors follow the command. */
class AuthUsageError extends Error {
	constructor(
		message: string,
		readonly unknownOption = false,
	) {
		super(message);
	}
}

function parseAuthArgs(command: AuthSubcommand, argv: readonly string[]): ParsedAuthArgs {
	const spec = SUBCOMMANDS[command];
	const parsed: ParsedAuthArgs = { help: false, flags: new Set(), values: new Map(), positionals: [] };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		if (arg === "-h" || arg === "--help") parsed.help = true;
		else if (spec.flags.includes(arg)) parsed.flags.add(arg);
		else if (spec.values.includes(arg)) {
			const value = argv[i + 1];
			if (value === undefined) throw new AuthUsageError(`${arg} requires a value`);
			parsed.values.set(arg, value);
			i++;
		} else if (arg.startsWith("-") && arg !== "-") {
			throw new AuthUsageError(`Unknown option ${arg} for "auth ${command}".`, true);
		} else parsed.positionals.push(arg);
	}
	if (parsed.help) return parsed;
	if (parsed.positionals.length > spec.positionals) {
		throw new AuthUsageError(`Unexpected argument "${parsed.positionals[spec.positionals]}"`);
	}
	if (parsed.positionals.length < spec.positionals) throw new AuthUsageError("Missing <provider>");
	if (spec.values.includes("--provider") && !parsed.values.has("--provider") && !parsed.values.has("--model")) {
		throw new AuthUsageError("--provider or --model is required");
	}
	return parsed;
}

const DURATION_UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--min-expiry`: `<number><s|m|h|d>`; a bare number counts seconds. */
export function parseMinExpiry(text: string): number {
	const match = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(text.trim());
	if (!match) throw new AuthUsageError(`Invalid --min-expiry "${text}": use a duration such as 90s, 30m or 2h`);
	return Math.round(Number(match[1]) * DURATION_UNITS[match[2] || "s"]!);
}

/** What the command reads and talks to; tests replace the providers and the terminal. */
export interface AuthCommandOptions {
	agentDir?: string;
	/** The built-in providers (the catalog); models.json is composed over them. */
	providers?: readonly Provider[];
	/** Keyboard and prompt stream for `login`; `null` when stdin or stdout is not a terminal. */
	terminal?: { input: TerminalInput; output: TerminalOutput } | null;
	/** Opens sign-in URLs unless `--no-browser`. */
	openUrl?: (url: string) => void;
}

interface AuthContext {
	io: MainIO;
	agentDir: string;
	authPath: string;
	options: AuthCommandOptions;
}

function processTerminal(): AuthCommandOptions["terminal"] {
	if (process.stdin.isTTY !== true || process.stdout.isTTY !== true) return null;
	return { input: process.stdin, output: process.stderr };
}

function createRuntime(context: AuthContext, credentials: CredentialStore, modelsStore?: ModelsStore): ModelRuntime {
	return new ModelRuntime({
		credentials,
		builtinProviders: context.options.providers ?? builtinProviders(),
		agentDir: context.agentDir,
		...(modelsStore ? { modelsStore } : {}),
	});
}

function knownProvider(runtime: ModelRuntime, id: string): Provider | undefined {
	const wanted = id.toLowerCase();
	return runtime.models.getProviders().find((candidate) => candidate.id.toLowerCase() === wanted);
}

/** A built-in or models.json provider, else one the user's extensions register. */
async function findProvider(context: AuthContext, runtime: ModelRuntime, id: string): Promise<Provider> {
	if (!knownProvider(runtime, id)) await registerExtensionProviders(runtime, context.agentDir);
	const provider = knownProvider(runtime, id);
	if (!provider) throw new Error(`Unknown provider "${id}"`);
	return provider;
}

/** Rejects as soon as the signal aborts, even when the login flow itself ignores it. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(new LoginCancelledError());
		if (signal.aborted) onAbort();
		signal.addEventListener("abort", onAbort, { once: true });
		work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
	});
}

async function login(context: AuthContext, args: ParsedAuthArgs): Promise<number> {
	const { io } = context;
	const terminal = context.options.terminal === undefined ? processTerminal() : context.options.terminal;
	if (!terminal) {
		throw new Error(
			`"${APP_NAME} auth login" needs an interactive terminal (stdin and stdout must be a TTY); ` +
				"without one, put the key in the environment or in auth.json",
		);
	}
	const apiKey = args.flags.has("--api-key");
	const noBrowser = args.flags.has("--no-browser");
	if (apiKey && noBrowser) throw new Error("--api-key and --no-browser cannot be used together");
	// The catalog an account's sign-in unlocks is stored for the next start (`afterLogin`).
	const modelsStore = new FileModelsStore(join(context.agentDir, "models-store.json"));
	const runtime = createRuntime(context, AuthStorage.create(context.authPath), modelsStore);
	const provider = await findProvider(context, runtime, args.positionals[0]!);
	const type = apiKey || !provider.auth.oauth ? "api_key" : "oauth";
	if (noBrowser && type !== "oauth") throw new Error(`${provider.name} has no account sign-in; use --api-key`);
	if (type === "api_key" && !provider.auth.apiKey?.login) {
		throw new Error(`${provider.name} does not take an API key through login; configure it in models.json`);
	}
	const controller = new AbortController();
	// Outside a prompt the terminal turns Ctrl+C into SIGINT; either way the login is aborted.
	const onSigint = () => controller.abort(new LoginCancelledError());
	process.on("SIGINT", onSigint);
	const interaction = createTerminalInteraction({
		input: terminal.input,
		output: terminal.output,
		controller,
		...(noBrowser ? {} : { openUrl: context.options.openUrl ?? openInBrowser }),
	});
	// Read (or created) only by sign-ins that name this installation, such as ChatGPT's.
	let settings: SettingsManager | undefined;
	const getDeviceId = () => {
		settings ??= SettingsManager.create(process.cwd(), context.agentDir);
		return settings.getOrCreateDeviceId();
	};
	try {
		await untilAborted(
			runtime.login(provider.id, type, interaction, { agentName: APP_NAME, getDeviceId }),
			controller.signal,
		);
		io.stdout(`Logged in to ${provider.name} (${provider.id}).\n`);
		await afterLogin(provider, runtime, { io, agentDir: context.agentDir, signal: controller.signal });
	} finally {
		process.off("SIGINT", onSigint);
		await Promise.all([runtime.settleCredentialWrites(), settings?.flush()]);
	}
	return 0;
}

async function logout(context: AuthContext, args: ParsedAuthArgs): Promise<number> {
	const providerId = args.positionals[0]!;
	const store = AuthStorage.create(context.authPath);
	const runtime = createRuntime(context, store);
	// Ids are stored as given; a provider that no longer exists can still be logged out of.
	const entries = await store.list();
	const known = runtime.models.getProviders().find((p) => p.id.toLowerCase() === providerId.toLowerCase());
	const id = entries.find((entry) => entry.providerId === providerId)?.providerId ?? known?.id ?? providerId;
	const stored = entries.some((entry) => entry.providerId === id);
	await runtime.logout(id);
	await runtime.settleCredentialWrites();
	context.io.stdout(
		stored ? `Logged out of ${runtime.getProviderDisplayName(id)} (${id}).\n` : `No stored credentials for ${id}.\n`,
	);
	return 0;
}

interface Evaluation {
	report: AuthReport;
	runtime?: ModelRuntime;
	target?: AuthTarget;
}

/** Strict auth.json read, target resolution and status; nothing is refreshed with `noRefresh`. */
async function evaluate(
	context: AuthContext,
	args: ParsedAuthArgs,
	options: { noRefresh: boolean; minValidityMs?: number },
): Promise<Evaluation> {
	const targetOptions = {
		...(args.values.has("--provider") ? { provider: args.values.get("--provider")! } : {}),
		...(args.values.has("--model") ? { model: args.values.get("--model")! } : {}),
	};
	let readOnly: ReadOnlyAuthStorage;
	try {
		readOnly = new ReadOnlyAuthStorage(context.authPath);
	} catch (error) {
		const reason = `Cannot use ${context.authPath}: ${(error as Error).message}`;
		return { report: { status: "invalid", provider: targetOptions.provider ?? null, reason } };
	}
	const store = options.noRefresh ? new ResolvingReadOnlyStore(readOnly) : AuthStorage.create(context.authPath);
	const runtime = createRuntime(context, store);
	let target = resolveAuthTarget(runtime, targetOptions);
	if ("status" in target && target.status === "invalid") {
		await registerExtensionProviders(runtime, context.agentDir);
		target = resolveAuthTarget(runtime, targetOptions);
	}
	if ("status" in target) return { report: target, runtime };
	const stored = await readOnly.read(target.provider.id);
	try {
		return { report: await evaluateAuth(runtime, target, stored, options), runtime, target };
	} finally {
		await runtime.settleCredentialWrites();
	}
}

async function check(context: AuthContext, args: ParsedAuthArgs): Promise<number> {
	const json = args.flags.has("--json");
	if (args.flags.has("--credentials") && !json) throw new AuthUsageError("--credentials requires --json");
	const { report } = await evaluate(context, args, { noRefresh: args.flags.has("--no-refresh") });
	if (json) {
		const { credentials, ...rest } = report;
		const shown = args.flags.has("--credentials") && credentials ? { ...rest, credentials } : rest;
		context.io.stdout(`${JSON.stringify(shown)}\n`);
	} else {
		context.io.stdout(`${report.status}\n`);
		if (report.reason) context.io.stderr(`${report.reason}\n`);
	}
	return report.status === "ready" ? 0 : report.status === "not_ready" ? 1 : 2;
}

async function printApiKey(context: AuthContext, args: ParsedAuthArgs): Promise<number> {
	const { report } = await evaluate(context, args, { noRefresh: false });
	if (report.status !== "ready") throw new Error(report.reason);
	const key = report.credentials?.apiKey;
	if (!key) throw new Error(`${report.provider} is configured without an API key (its auth uses headers only)`);
	context.io.stdout(`${key}\n`);
	return 0;
}

async function printBearerToken(context: AuthContext, args: ParsedAuthArgs): Promise<number> {
	const minExpiry = args.values.get("--min-expiry");
	const minValidityMs = minExpiry === undefined ? undefined : parseMinExpiry(minExpiry);
	const { report, runtime, target } = await evaluate(context, args, {
		noRefresh: false,
		...(minValidityMs !== undefined ? { minValidityMs } : {}),
	});
	if (report.status !== "ready") throw new Error(report.reason);
	const credential = await runtime!.credentials.read(target!.provider.id);
	if (credential?.type !== "oauth") {
		throw new Error(
			`${target!.provider.id} has no OAuth login; run "${APP_NAME} auth login ${target!.provider.id}" first`,
		);
	}
	context.io.stdout(`${credential.access}\n`);
	return 0;
}

const HANDLERS: Record<AuthSubcommand, (context: AuthContext, args: ParsedAuthArgs) => Promise<number>> = {
	login,
	logout,
	check,
	"print-api-key": printApiKey,
	"print-bearer-token": printBearerToken,
};

function isSubcommand(value: string | undefined): value is AuthSubcommand {
	return value !== undefined && Object.hasOwn(SUBCOMMANDS, value);
}

/** `tau auth …` (docs/design/cli.md#auth-command); returns the exit code. */
export async function runAuthCommand(
	argv: readonly string[],
	io: MainIO,
	options: AuthCommandOptions = {},
): Promise<number> {
	const [command, ...rest] = argv;
	if (command === "-h" || command === "--help") {
		io.stdout(overallUsage());
		return 0;
	}
	if (!isSubcommand(command)) {
		if (command?.startsWith("-")) io.stderr(`Unknown option ${command} for "auth".\n`);
		else
			io.stderr(
				command === undefined ? "Error: Missing auth command\n" : `Error: Unknown auth command "${command}"\n`,
			);
		io.stderr(overallUsage());
		return 1;
	}
	const failure = command === "check" ? 2 : 1;
	const usage = `Usage: ${SUBCOMMANDS[command].usage}\n`;
	const agentDir = options.agentDir ?? getAgentDir();
	const context: AuthContext = { io, agentDir, authPath: join(agentDir, "auth.json"), options };
	try {
		const args = parseAuthArgs(command, rest);
		if (args.help) {
			io.stdout(usage);
			return 0;
		}
		return await HANDLERS[command](context, args);
	} catch (error) {
		if (error instanceof AuthUsageError) {
			io.stderr(error.unknownOption ? `${error.message}\n${usage}` : `Error: ${error.message}\n${usage}`);
			return error.unknownOption ? 1 : failure;
		}
		io.stderr(`Error: ${errorMessage(error)}\n`);
		return failure;
	}
}
