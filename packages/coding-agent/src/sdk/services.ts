import { resolve } from "node:path";
import type { ThinkingLevel } from "@tau/agent";
import type { Api, Model } from "@tau/ai";
import { AuthStorage, getAgentDir, type ModelRuntime, type ScopedModel, SettingsManager } from "../config/index.js";
import {
	type AnyToolDefinition,
	applyExtensionFlagValues,
	defaultExtensionLoader,
	type Extension,
	type RegisteredFlag,
	type SessionStartEvent,
} from "../core/extensions/index.js";
import {
	DefaultResourceLoader,
	type DefaultResourceLoaderOptions,
	type ReloadOptions,
	type ResourceLoader,
} from "../core/resources/index.js";
import type { SessionManager } from "../core/session/index.js";
import {
	type CreateAgentSessionOptions,
	type CreateAgentSessionResult,
	createAgentSession,
	flushProviderRegistrations,
} from "./create-agent-session.js";
import { createDefaultModelRuntime } from "./model-runtime-factory.js";

/**
 * A message about setting up a session's services (for example a settings or resource problem), with its severity
 * (info, warning or error), for the host to show.
 */
export interface AgentSessionRuntimeDiagnostic {
	type: "info" | "warning" | "error";
	message: string;
}

/** Cwd-bound infrastructure shared by the sessions of one runtime. */
export interface AgentSessionServices {
	cwd: string;
	agentDir: string;
	modelRuntime: ModelRuntime;
	settingsManager: SettingsManager;
	resourceLoader: ResourceLoader;
	diagnostics: AgentSessionRuntimeDiagnostic[];
}

/**
 * Options of `createAgentSessionServices`: the working and agent directories and, optionally, the auth storage,
 * settings, model runtime and resource loader to use.
 */
export interface CreateAgentSessionServicesOptions {
	cwd: string;
	agentDir?: string;
	settingsManager?: SettingsManager;
	modelRuntime?: ModelRuntime;
	/** CLI options tau did not recognize, applied to extension flags. */
	extensionFlagValues?: Map<string, boolean | string>;
	resourceLoaderOptions?: Omit<DefaultResourceLoaderOptions, "cwd" | "agentDir" | "settingsManager">;
	resourceLoaderReloadOptions?: ReloadOptions;
}

/** Settings, resources (trust and extension loading happen here) and models for a cwd; never prints or exits. */
export async function createAgentSessionServices(
	options: CreateAgentSessionServicesOptions,
): Promise<AgentSessionServices> {
	const cwd = resolve(options.cwd);
	const agentDir = options.agentDir ?? getAgentDir();
	const modelRuntime = options.modelRuntime ?? (await createDefaultModelRuntime(agentDir));
	const settingsManager = options.settingsManager ?? SettingsManager.create(cwd, agentDir);
	const resourceLoader = new DefaultResourceLoader({
		loadExtensions: defaultExtensionLoader,
		...options.resourceLoaderOptions,
		cwd,
		agentDir,
		settingsManager,
	});
	await resourceLoader.reload(options.resourceLoaderReloadOptions);
	const diagnostics: AgentSessionRuntimeDiagnostic[] = flushProviderRegistrations(resourceLoader, modelRuntime).map(
		(message) => ({ type: "error", message }),
	);
	await modelRuntime.refreshAvailability();
	// A broken or world-readable auth.json is reported now, not as "no API key" at the first prompt.
	const store = modelRuntime.credentials.store;
	if (store instanceof AuthStorage) {
		for (const { message } of store.drainDiagnostics()) diagnostics.push({ type: "warning", message });
	}
	if (options.extensionFlagValues && options.extensionFlagValues.size > 0) {
		const extensions = resourceLoader.getExtensions().extensions as unknown as Extension[];
		const flags = new Map<string, RegisteredFlag>();
		for (const extension of extensions) {
			for (const flag of extension.flags.values()) if (!flags.has(flag.name)) flags.set(flag.name, flag);
		}
		const runtime = resourceLoader.getExtensions().runtime as { flagValues?: Map<string, boolean | string> };
		const errors = applyExtensionFlagValues([...flags.values()], options.extensionFlagValues, (name, value) =>
			runtime.flagValues?.set(name, value),
		);
		for (const message of errors) diagnostics.push({ type: "error", message });
	}
	return { cwd, agentDir, modelRuntime, settingsManager, resourceLoader, diagnostics };
}

/**
 * Options of `createAgentSessionFromServices`: services created earlier, the session manager, and the model,
 * thinking level and tools to start with.
 */
export interface CreateAgentSessionFromServicesOptions {
	services: AgentSessionServices;
	sessionManager: SessionManager;
	sessionStartEvent?: SessionStartEvent;
	model?: Model<Api>;
	thinkingLevel?: ThinkingLevel | "off";
	scopedModels?: ScopedModel[];
	tools?: string[];
	excludeTools?: string[];
	noTools?: "all" | "builtin";
	customTools?: AnyToolDefinition[];
	retrySleep?: CreateAgentSessionOptions["retrySleep"];
}

/** `createAgentSession` with the services' cwd, agent dir, model runtime, settings and resources. */
export function createAgentSessionFromServices(
	options: CreateAgentSessionFromServicesOptions,
): Promise<CreateAgentSessionResult> {
	const { services, ...rest } = options;
	return createAgentSession({
		...rest,
		cwd: services.cwd,
		agentDir: services.agentDir,
		modelRuntime: services.modelRuntime,
		settingsManager: services.settingsManager,
		resourceLoader: services.resourceLoader,
	});
}
