import { resolve } from "node:path";
import type { ThinkingLevel } from "@tau/agent";
import type { Api, Model } from "@tau/ai";
import { builtinExtensionFactories } from "../builtin/builtin-extensions.js";
import type { ParsedArgs } from "../cli/args.js";
import {
	collectSettingsDiagnostics,
	discoverServedModel,
	type ModelRuntime,
	ProjectTrustStore,
	resolveCliModel,
	resolveModelScope,
	type ScopedModel,
	SettingsManager,
	selectInitialModel,
} from "../config/index.js";
import { errorMessage } from "../core/errors.js";
import {
	applyExtensionFlagValues,
	type Extension,
	headlessProjectTrustContext,
	type RegisteredFlag,
} from "../core/extensions/index.js";
import { type PackageProgressEvent, ProjectTrustCache } from "../core/resources/index.js";
import { branchHasContext, fromBranchEnd } from "../core/session/index.js";
import {
	type AgentSessionRuntimeDiagnostic,
	type CreateAgentSessionRuntimeFactory,
	createAgentSessionFromServices,
	createAgentSessionServices,
	createDefaultModelRuntime,
	DEMO_MODEL_ID,
	DEMO_PROVIDER_ID,
	demoProvider,
} from "../sdk/index.js";
import { StartupError } from "./diagnostics.js";

/** The flags an extension registered, for `--help` and flag matching. */
export function registeredFlags(extensions: readonly unknown[]): RegisteredFlag[] {
	const flags = new Map<string, RegisteredFlag>();
	for (const extension of extensions as Extension[]) {
		for (const flag of extension.flags?.values() ?? []) if (!flags.has(flag.name)) flags.set(flag.name, flag);
	}
	return [...flags.values()];
}

/** Matches the unknown long options against extension flags (docs/design/cli.md#tokenizer); returns error messages. */
function applyExtensionFlags(
	unknownFlags: ReadonlyMap<string, string | true>,
	flags: readonly RegisteredFlag[],
	setValue: (name: string, value: boolean | string) => void,
): string[] {
	const known = new Map<string, boolean | string>();
	const unknown: string[] = [];
	for (const [name, value] of unknownFlags) {
		if (flags.some((flag) => flag.name === name)) known.set(name, value);
		else unknown.push(`--${name}`);
	}
	const errors = applyExtensionFlagValues(flags, known, setValue);
	if (unknown.length === 1) errors.push(`Unknown option: ${unknown[0]}`);
	else if (unknown.length > 1) errors.push(`Unknown options: ${unknown.join(", ")}`);
	return errors;
}

/** Registers the offline demo provider when `--offline-demo` asked for it and returns its model. */
function demoModel(modelRuntime: ModelRuntime): Model<Api> {
	modelRuntime.registerProvider(DEMO_PROVIDER_ID, demoProvider());
	const model = modelRuntime.getModel(DEMO_PROVIDER_ID, DEMO_MODEL_ID);
	if (!model) throw new StartupError("The offline demo model is not available");
	return model as Model<Api>;
}

/** `Installing <source>...` before a package is installed or cloned during startup. */
function announceInstall(event: PackageProgressEvent): void {
	if (event.type === "start" && (event.action === "install" || event.action === "clone")) {
		process.stderr.write(`Installing ${event.source}...\n`);
	}
}

/** The startup trust prompt, loaded with the TUI only when an interactive start has to ask. */
async function askProjectTrustAtStartup(options: { cwd: string; parent: string | undefined }) {
	const { askProjectTrust } = await import("../modes/interactive/trust-prompt.js");
	return askProjectTrust(options);
}

/**
 * The CLI's runtime factory: one call per session (startup and every replacement) builds settings,
 * trust, resources, the model runtime and the session from the parsed flags (docs/design/cli.md#startup-steps).
 */
export function createCliRuntimeFactory(
	args: ParsedArgs,
	processCwd: string,
	mode: "interactive" | "print" | "json" | "rpc",
): CreateAgentSessionRuntimeFactory {
	const trustCache = new ProjectTrustCache();
	const fromProcessCwd = (path: string) => (/^[a-z][a-z0-9+.-]*:/i.test(path) ? path : resolve(processCwd, path));
	// Only the first call (startup) may prompt: later ones run while the session's own UI owns the
	// terminal, so a replacement into an undecided project falls back to "no UI" (untrusted, unsaved).
	let startup = true;
	return async ({ cwd, agentDir, sessionManager, sessionStartEvent }) => {
		const diagnostics: AgentSessionRuntimeDiagnostic[] = [];
		const settingsManager = SettingsManager.create(cwd, agentDir);
		const reloadOptions = trustCache.prepareReload(
			{
				cwd,
				store: new ProjectTrustStore(agentDir),
				...(args.approve !== undefined ? { cliOverride: args.approve } : {}),
				defaultProjectTrust: settingsManager.getDefaultProjectTrust(),
				trustContext: { ...headlessProjectTrustContext(cwd), mode: mode === "interactive" ? "tui" : mode },
				onWarning: (message) => diagnostics.push({ type: "warning", message }),
				...(mode === "interactive" && startup ? { prompt: askProjectTrustAtStartup } : {}),
			},
			settingsManager,
		);
		let announcing = startup;
		startup = false;
		const modelRuntime = await createDefaultModelRuntime(agentDir);
		const demo = args.offlineDemo ? demoModel(modelRuntime) : undefined;
		const services = await createAgentSessionServices({
			cwd,
			agentDir,
			settingsManager,
			modelRuntime,
			resourceLoaderOptions: {
				additionalExtensionPaths: args.extensions.map(fromProcessCwd),
				additionalSkillPaths: args.skills.map(fromProcessCwd),
				additionalPromptTemplatePaths: args.promptTemplates.map(fromProcessCwd),
				additionalThemePaths: args.themes.map(fromProcessCwd),
				extensionFactories: builtinExtensionFactories({ oneShot: mode === "print" || mode === "json" }),
				// docs/design/cli.md#diagnostics: installs while starting are announced on stderr (their output is captured);
				// later reloads stay quiet, since an interactive UI may own the terminal by then.
				onPackageProgress: (event) => {
					if (announcing) announceInstall(event);
				},
				noExtensions: args.noExtensions,
				...(args.noMcp ? { disabledBuiltinExtensions: ["mcp"] } : {}),
				noSkills: args.noSkills,
				noPromptTemplates: args.noPromptTemplates,
				noThemes: args.noThemes,
				noContextFiles: args.noContextFiles,
				...(args.systemPrompt !== undefined ? { systemPrompt: args.systemPrompt } : {}),
				appendSystemPrompt: args.appendSystemPrompt,
			},
			resourceLoaderReloadOptions: reloadOptions,
		});
		diagnostics.push(...services.diagnostics);
		// A settings file that does not parse is named with its line and column (it is never rewritten).
		diagnostics.push(...collectSettingsDiagnostics(settingsManager.drainErrors()));
		const loaded = services.resourceLoader.getExtensions();
		for (const failure of loaded.errors) {
			diagnostics.push({ type: "error", message: `Failed to load extension "${failure.path}": ${failure.error}` });
		}
		const runtime = loaded.runtime as { flagValues?: Map<string, boolean | string> } | undefined;
		for (const message of applyExtensionFlags(args.unknownFlags, registeredFlags(loaded.extensions), (name, value) =>
			runtime?.flagValues?.set(name, value),
		)) {
			diagnostics.push({ type: "error", message });
		}

		const model = await chooseModel(
			args,
			modelRuntime,
			settingsManager,
			fromBranchEnd(sessionManager, branchHasContext),
			diagnostics,
			demo,
		);
		const created = await createAgentSessionFromServices({
			services,
			sessionManager,
			...(sessionStartEvent ? { sessionStartEvent } : {}),
			...(model.model ? { model: model.model } : {}),
			...((args.thinking ?? model.thinkingLevel)
				? { thinkingLevel: (args.thinking ?? model.thinkingLevel) as ThinkingLevel }
				: {}),
			...(model.scope.length > 0 ? { scopedModels: model.scope } : {}),
			...toolSelection(args, demo !== undefined),
			...(args.excludeTools ? { excludeTools: args.excludeTools } : {}),
			...(args.noTools ? { noTools: "all" as const } : args.noBuiltinTools ? { noTools: "builtin" as const } : {}),
		});
		if (created.modelFallbackMessage && hasRealModel(created.session.model, modelRuntime)) {
			diagnostics.push({ type: "warning", message: created.modelFallbackMessage });
		}
		announcing = false;
		return { ...created, services, diagnostics };
	};
}

/**
 * `--tools` as given; the offline demo adds `ls` (its script starts with an `ls` call) unless the
 * user's flags leave it out: a plain allowlist, `-ls`, `--no-tools` or `--no-builtin-tools`.
 */
export function toolSelection(args: ParsedArgs, demo: boolean): { tools?: string[] } {
	const tools = args.tools;
	if (!demo || args.noTools || args.noBuiltinTools) return tools ? { tools } : {};
	if (!tools) return { tools: ["+ls"] };
	const modifiesDefaults = tools.every((entry) => entry.startsWith("+") || entry.startsWith("-"));
	if (!modifiesDefaults || tools.includes("-ls") || tools.includes("+ls")) return { tools };
	return { tools: [...tools, "+ls"] };
}

/**
 * The agent holds a placeholder until a model is chosen; a real one belongs to a provider of the model
 * runtime (a custom `--model provider/id` the catalog lacks included).
 */
export function hasRealModel(model: Model<Api> | undefined, modelRuntime: ModelRuntime): boolean {
	return model !== undefined && modelRuntime.getProvider(model.provider) !== undefined;
}

interface ModelChoice {
	model?: Model<Api>;
	thinkingLevel?: string;
	scope: ScopedModel[];
}

/** `--model`, `--api-key`, `--models`/`enabledModels` and `--offline-demo` (docs/design/cli.md#options, docs/design/cli.md#offline-demo). */
async function chooseModel(
	args: ParsedArgs,
	modelRuntime: ModelRuntime,
	settings: SettingsManager,
	hasMessages: boolean,
	diagnostics: AgentSessionRuntimeDiagnostic[],
	demo: Model<Api> | undefined,
): Promise<ModelChoice> {
	if (demo) return { model: demo, scope: [] };
	const usable = (provider: string) => modelRuntime.hasConfiguredAuth(provider);
	const discovery =
		args.model !== undefined ? await discoverServedModel(modelRuntime, args.model, args.provider) : undefined;
	if (discovery) diagnostics.push({ type: "warning", message: discovery });
	let cli: ReturnType<typeof resolveCliModel>;
	try {
		cli = resolveCliModel({
			...(args.model !== undefined ? { model: args.model } : {}),
			...(args.provider !== undefined ? { provider: args.provider } : {}),
			...(args.thinking ? { thinking: args.thinking } : {}),
			hasApiKey: args.apiKey !== undefined,
			models: () => modelRuntime.getModels(),
			catalog: {
				providerIds: () => modelRuntime.getProviders().map((provider) => provider.id),
				find: (provider, id) => modelRuntime.getModel(provider, id),
			},
			usable,
		});
	} catch (error) {
		// A model that is not found because its server did not answer: say why, in the error itself.
		const message = errorMessage(error);
		throw new StartupError(discovery ? `${message}\n${discovery}` : message);
	}
	for (const warning of cli?.warnings ?? []) diagnostics.push({ type: "warning", message: warning });

	const patterns = args.models ?? settings.getEnabledModels();
	let scope: ScopedModel[] = [];
	if (patterns && patterns.length > 0) {
		const resolved = resolveModelScope(
			patterns,
			args.apiKey !== undefined ? modelRuntime.getModels() : modelRuntime.getAvailableSnapshot(),
		);
		scope = resolved.models;
		for (const warning of resolved.warnings) diagnostics.push({ type: "warning", message: warning });
	}

	if (args.apiKey !== undefined) {
		const provider = cli?.model.provider ?? scope[0]?.model.provider;
		if (!provider) {
			throw new StartupError(
				"--api-key requires a model to be specified via --model, --provider/--model, or --models",
			);
		}
		await modelRuntime.setRuntimeApiKey(provider, args.apiKey);
		await modelRuntime.refreshAvailability([provider]);
	}

	if (cli)
		return {
			model: cli.model as Model<Api>,
			...(cli.thinkingLevel ? { thinkingLevel: cli.thinkingLevel } : {}),
			scope,
		};
	if (scope.length === 0) return { scope };
	const selection = selectInitialModel({
		scope,
		hasMessages,
		defaultProvider: settings.getDefaultProvider(),
		defaultModel: settings.getDefaultModel(),
		find: (provider, id) => modelRuntime.getModel(provider, id),
		models: () => modelRuntime.getAvailableSnapshot(),
		usable,
	});
	if (selection.source !== "scope" || !selection.model) return { scope };
	return {
		model: selection.model as Model<Api>,
		...(selection.thinkingLevel ? { thinkingLevel: selection.thinkingLevel } : {}),
		scope,
	};
}
