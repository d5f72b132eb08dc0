import { join } from "node:path";
import { type FauxModelDefinition, type FauxProviderHandle, fauxProvider } from "@tau/ai";
import {
	type AgentSessionRuntime,
	createAgentSession,
	createAgentSessionRuntime,
	defaultExtensionLoader,
	type ExtensionFactory,
	SessionManager,
	SettingsManager,
} from "@tau/coding-agent";
import type { DefaultResourceLoaderOptions } from "../../src/core/resources/index.js";
import { isolatedModelRuntime, isolatedResourceLoader, withExtension } from "./isolated-session.js";

export interface FauxRuntimeOptions {
	cwd: string;
	agentDir: string;
	models?: FauxModelDefinition[];
	settings?: Record<string, unknown>;
	/** Extra `DefaultResourceLoader` options; every resource kind is off by default. */
	loader?: Partial<DefaultResourceLoaderOptions>;
	/** One inline extension, loaded after `loader.extensionFactories`. */
	extension?: ExtensionFactory;
	/** Start without any model, as a user with no credentials would. */
	noModel?: boolean;
	/** A file-backed session under `<agentDir>/sessions` instead of an in-memory one. */
	persisted?: boolean;
	/** Opens this session file (as `--session` does) instead of starting a new session. */
	sessionFile?: string;
	/** Opens `sessionFile` with message bodies read on first use, as the interactive CLI does. */
	deferBodies?: boolean;
}

/**
 * A real `AgentSessionRuntime` over the faux provider, isolated from the user's resources, with
 * retry backoff that never waits: what the mode tests (interactive, RPC) drive.
 */
export async function createFauxRuntime(
	options: FauxRuntimeOptions,
): Promise<{ runtime: AgentSessionRuntime; faux: FauxProviderHandle }> {
	const { cwd, agentDir } = options;
	const faux = fauxProvider({ models: options.models ?? [{ id: "faux-1" }] });
	const modelRuntime = isolatedModelRuntime(options.noModel ? {} : { faux: faux.provider });
	const settingsManager = SettingsManager.inMemory({ ...options.settings }, { projectTrusted: false });
	const runtime = await createAgentSessionRuntime(
		async ({ cwd: sessionCwd, agentDir: dir, sessionManager, sessionStartEvent }) => {
			const resourceLoader = await isolatedResourceLoader({
				cwd: sessionCwd,
				agentDir: dir,
				settingsManager,
				loadExtensions: defaultExtensionLoader,
				...withExtension(options.loader, options.extension),
			});
			const created = await createAgentSession({
				cwd: sessionCwd,
				agentDir: dir,
				modelRuntime,
				settingsManager,
				resourceLoader,
				sessionManager,
				...(options.noModel ? {} : { model: faux.getModel() as never }),
				...(sessionStartEvent ? { sessionStartEvent } : {}),
				retrySleep: async (_ms, signal) => {
					if (signal.aborted) throw new Error("aborted");
				},
			});
			const services = {
				cwd: sessionCwd,
				agentDir: dir,
				modelRuntime,
				settingsManager,
				resourceLoader,
				diagnostics: [],
			};
			return { ...created, services, diagnostics: [] };
		},
		{
			cwd,
			agentDir,
			sessionManager: options.sessionFile
				? SessionManager.open(options.sessionFile, undefined, cwd, {
						agentDir,
						...(options.deferBodies ? { deferBodies: true } : {}),
					})
				: options.persisted
					? SessionManager.create(cwd, join(agentDir, "sessions"), undefined, { agentDir })
					: SessionManager.inMemory(cwd),
		},
	);
	return { runtime, faux };
}
