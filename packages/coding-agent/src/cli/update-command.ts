import type { Provider } from "@tau/ai";
import { APP_NAME, PACKAGE_DIR, PACKAGE_NAME, VERSION } from "../config/app-identity.js";
import { isOffline } from "../config/env.js";
import type { ModelRuntime } from "../config/index.js";
import { npmCommandOrDefault } from "../config/settings/normalize.js";
import { errorMessage } from "../core/errors.js";
import { countNoun } from "../core/text/count-noun.js";
import type { MainIO } from "./main-io.js";
import { openPackageSettings, type PackageCommandLocation } from "./package-settings.js";
import { npmSelfUpdateEnvironment, runSelfUpdate } from "./self-update.js";

const USAGE = `Usage: ${APP_NAME} update [source|self|pi] [--self|--extensions|--models|--all] [--extension <source>] [-a|--approve] [-na|--no-approve] [--force]`;

/** Positional targets that mean tau itself. */
const SELF_TARGETS = new Set(["self", "pi", APP_NAME]);

interface UpdateFlags {
	self: boolean;
	extensions: boolean;
	models: boolean;
	all: boolean;
	extension?: string;
	positional: string[];
	force: boolean;
	approve?: boolean;
	help: boolean;
}

/** What one `tau update` run does. */
export interface UpdatePlan {
	self: boolean;
	/** Update packages: every one, or the one with this source. */
	packages?: { source?: string };
	models: boolean;
	force: boolean;
	approve?: boolean;
}

/** A usage error: printed with the usage line, exit 1. */
class UpdateUsageError extends Error {}

function parseFlags(argv: readonly string[]): UpdateFlags {
	const flags: UpdateFlags = {
		self: false,
		extensions: false,
		models: false,
		all: false,
		positional: [],
		force: false,
		help: false,
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		if (arg === "-a" || arg === "--approve") flags.approve = true;
		else if (arg === "-na" || arg === "--no-approve") flags.approve = false;
		else if (arg === "-h" || arg === "--help") flags.help = true;
		else if (arg === "--self") flags.self = true;
		else if (arg === "--extensions") flags.extensions = true;
		else if (arg === "--models") flags.models = true;
		else if (arg === "--all") flags.all = true;
		else if (arg === "--force") flags.force = true;
		else if (arg === "--extension") {
			const source = argv[++i];
			if (source === undefined) throw new UpdateUsageError("--extension needs a package source.");
			if (flags.extension !== undefined) throw new UpdateUsageError("--extension can be given only once.");
			flags.extension = source;
		} else if (arg.startsWith("-") && arg !== "-") throw new UpdateUsageError(`Unknown option ${arg} for "update".`);
		else flags.positional.push(arg);
	}
	return flags;
}

/** Which targets exclude which (docs/design/cli.md#package-commands); `<target>` is the positional source or self alias. */
const CONFLICTS: ReadonlyArray<readonly [string, readonly string[]]> = [
	["--all", ["--self", "--extensions", "--models", "--extension", "<target>"]],
	["--models", ["--self", "--extensions", "--extension", "<target>"]],
	["--extension", ["--self", "--extensions", "<target>"]],
	["<target>", ["--self", "--extensions"]],
];

/** The first conflict among `flags`, as a sentence. */
function findConflict(flags: UpdateFlags): string | undefined {
	if (flags.positional.length > 1) return `Only one update target can be given (got ${flags.positional.join(", ")}).`;
	const present = new Map<string, string>();
	if (flags.self) present.set("--self", "--self");
	if (flags.extensions) present.set("--extensions", "--extensions");
	if (flags.models) present.set("--models", "--models");
	if (flags.all) present.set("--all", "--all");
	if (flags.extension !== undefined) present.set("--extension", "--extension");
	if (flags.positional[0] !== undefined) present.set("<target>", `"${flags.positional[0]}"`);
	for (const [option, excluded] of CONFLICTS) {
		const label = present.get(option);
		const others = excluded.flatMap((name) => present.get(name) ?? []);
		if (label !== undefined && others.length > 0) return `${label} cannot be combined with ${others.join(", ")}.`;
	}
	return undefined;
}

/** Parses `tau update` arguments (docs/design/cli.md#package-commands); throws a usage error on any conflict. */
export function parseUpdateArgs(argv: readonly string[]): UpdatePlan | "help" {
	const flags = parseFlags(argv);
	if (flags.help) return "help";
	const conflict = findConflict(flags);
	if (conflict) throw new UpdateUsageError(conflict);
	const common = { force: flags.force, ...(flags.approve !== undefined ? { approve: flags.approve } : {}) };
	if (flags.models) return { ...common, self: false, models: true };
	if (flags.all) return { ...common, self: true, packages: {}, models: false };
	const source = flags.extension ?? flags.positional[0];
	if (source !== undefined && !SELF_TARGETS.has(source))
		return { ...common, self: false, packages: { source }, models: false };
	if (flags.extensions) return { ...common, self: flags.self, packages: {}, models: false };
	return { ...common, self: true, models: false };
}

export interface UpdateCommandOptions extends PackageCommandLocation {
	/** The running package's root (default: this package's); npm and commands come from the settings. */
	packageDir?: string;
	/** The model runtime whose catalogs `--models` refreshes; default: the agent dir's. */
	modelRuntime?: (agentDir: string) => ModelRuntime | Promise<ModelRuntime>;
}

/** `tau update …`: tau itself, packages, or model catalogs. Returns the exit code. */
export async function runUpdateCommand(
	argv: readonly string[],
	io: MainIO,
	options: UpdateCommandOptions = {},
): Promise<number> {
	let plan: UpdatePlan | "help";
	try {
		plan = parseUpdateArgs(argv);
	} catch (error) {
		if (!(error instanceof UpdateUsageError)) throw error;
		io.stderr(`${error.message}\n${USAGE}\n`);
		return 1;
	}
	if (plan === "help") {
		io.stdout(`${USAGE}\n`);
		return 0;
	}
	try {
		const { cwd, agentDir, settings } = await openPackageSettings(
			{ ...(plan.approve !== undefined ? { approve: plan.approve } : {}), mayAsk: false },
			options,
		);
		const offline = isOffline();
		if (plan.models) {
			const runtime = await (options.modelRuntime ?? defaultModelRuntime)(agentDir);
			try {
				return await refreshModelCatalogs(runtime, io, offline);
			} finally {
				await runtime.settleCredentialWrites();
			}
		}
		let code = 0;
		if (plan.self) {
			const customCommand = settings.getSelfUpdateCommand();
			const environment = npmSelfUpdateEnvironment({
				packageName: PACKAGE_NAME,
				currentVersion: VERSION,
				packageDir: options.packageDir ?? PACKAGE_DIR,
				npmCommand: npmCommandOrDefault(settings.getNpmCommand()),
				cwd,
				offline,
				...(customCommand ? { customCommand } : {}),
			});
			code = Math.max(code, await runSelfUpdate(environment, io, { force: plan.force }));
		}
		if (plan.packages) {
			const resources = await import("../core/resources/index.js");
			const report = await resources.updatePackages({
				cwd,
				agentDir,
				settings,
				npmCommand: npmCommandOrDefault(settings.getNpmCommand()),
				output: "inherit",
				...(plan.packages.source !== undefined ? { source: plan.packages.source } : {}),
				offline,
			});
			for (const warning of report.warnings) io.stderr(`Warning: ${warning}\n`);
			io.stdout(`${report.summary.join("\n")}\n`);
			if (report.warnings.length > 0) code = 1;
		}
		return code;
	} catch (error) {
		io.stderr(`Error: ${errorMessage(error)}\n`);
		return 1;
	}
}

async function defaultModelRuntime(agentDir: string): Promise<ModelRuntime> {
	const { createDefaultModelRuntime } = await import("../sdk/model-runtime-factory.js");
	return createDefaultModelRuntime(agentDir);
}

/** An explicit refresh waits this long for every provider together. */
const MODELS_REFRESH_TIMEOUT_MS = 60_000;

const providerLabel = (provider: Provider) =>
	provider.name && provider.name !== provider.id ? `${provider.name} (${provider.id})` : provider.id;

/** `fetch failed` alone hides why; its cause says e.g. `connect ECONNREFUSED 127.0.0.1:11434`. */
function withCause(error: Error): string {
	const cause = error.cause instanceof Error ? error.cause.message : undefined;
	return cause && !error.message.includes(cause) ? `${error.message}: ${cause}` : error.message;
}

/**
 * `tau update --models`: refreshes the catalog of every configured provider that has a dynamic one
 * (static catalogs have nothing to refresh) and reports each provider's outcome.
 */
export async function refreshModelCatalogs(runtime: ModelRuntime, io: MainIO, offline: boolean): Promise<number> {
	if (offline) {
		io.stdout("Skipped model catalog refresh (offline mode)\n");
		return 0;
	}
	const dynamic = runtime.models.getProviders().filter((provider) => provider.refreshModels !== undefined);
	if (dynamic.length === 0) {
		io.stdout(
			"No provider has a refreshable model catalog (the configured catalogs are static); nothing to refresh.\n",
		);
		return 0;
	}
	const configured: Provider[] = [];
	const unconfigured: Provider[] = [];
	for (const provider of dynamic) {
		const auth = await runtime.models.checkAuth(provider.id).catch(() => undefined);
		(auth ? configured : unconfigured).push(provider);
	}
	if (unconfigured.length > 0) {
		io.stdout(`Skipped (not configured): ${unconfigured.map(providerLabel).join(", ")}\n`);
	}
	if (configured.length === 0) {
		io.stdout("No configured provider has a refreshable model catalog; nothing to refresh.\n");
		return 0;
	}
	const result = await runtime.refresh({
		providers: configured.map((provider) => provider.id),
		force: true,
		signal: AbortSignal.timeout(MODELS_REFRESH_TIMEOUT_MS),
	});
	if (result.aborted) {
		io.stderr(`Error: model catalog refresh timed out after ${MODELS_REFRESH_TIMEOUT_MS / 1000} s\n`);
		return 1;
	}
	const refreshed = configured.filter((provider) => !result.errors.has(provider.id));
	const notRunning: Provider[] = [];
	let failures = 0;
	for (const provider of configured) {
		const error = result.errors.get(provider.id);
		if (!error) continue;
		if (isLocalServerDown(provider, error)) {
			notRunning.push(provider);
			continue;
		}
		failures++;
		io.stderr(`Warning: could not refresh ${providerLabel(provider)}: ${withCause(error)}\n`);
	}
	if (notRunning.length > 0) {
		const servers = notRunning.map((provider) => `${providerLabel(provider)} at ${provider.baseUrl}`);
		io.stdout(`Skipped (no local server running): ${servers.join(", ")}\n`);
	}
	if (refreshed.length > 0) {
		const lines = refreshed.map((provider) => {
			const count = runtime.models.getAllModels(provider.id).length;
			return `  ${providerLabel(provider)}: ${countNoun(count, "model")}`;
		});
		io.stdout(`Refreshed model catalogs:\n${lines.join("\n")}\n`);
	}
	return failures > 0 ? 1 : 0;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A local model server (Ollama, LM Studio, ...) that is simply not started refuses the connection:
 * that is the normal state of most machines, not a failed update.
 */
function isLocalServerDown(provider: Provider, error: Error): boolean {
	if (!provider.baseUrl) return false;
	let host: string;
	try {
		host = new URL(provider.baseUrl).hostname;
	} catch {
		return false;
	}
	if (!LOOPBACK_HOSTS.has(host)) return false;
	for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
		if ((cause as NodeJS.ErrnoException).code === "ECONNREFUSED" || /\bECONNREFUSED\b/.test(cause.message))
			return true;
	}
	return false;
}
