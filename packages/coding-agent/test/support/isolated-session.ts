/**
 * The parts every session test needs, isolated from the user's files and from each other: temp
 * dirs, a model runtime with only the providers a test registers, a resource loader that loads
 * nothing from disk, and a session over them (`createIsolatedSession`).
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Api, Model, Provider } from "@tau/ai";
import {
	type AgentSession,
	AuthStorage,
	type CreateAgentSessionOptions,
	createAgentSession,
	DefaultResourceLoader,
	type ExtensionFactory,
	ModelRuntime,
	SessionManager,
	SettingsManager,
} from "@tau/coding-agent";
import type { DefaultResourceLoaderOptions } from "../../src/core/resources/index.js";

export function tempDir(prefix = "tau-session-"): string {
	return mkdtempSync(join(tmpdir(), prefix));
}

/** A fresh agent dir (`<temp>/agent`), so nothing is read from or written to the real one. */
export function tempAgentDir(): string {
	const agentDir = join(tempDir("tau-agent-"), "agent");
	mkdirSync(agentDir, { recursive: true });
	return agentDir;
}

/** A model runtime with in-memory credentials, no built-in catalog, no models.json: only `providers`. */
export function isolatedModelRuntime(providers: Record<string, Provider> = {}): ModelRuntime {
	const modelRuntime = new ModelRuntime({
		credentials: AuthStorage.inMemory(),
		builtinProviders: [],
		modelsJsonPath: null,
	});
	for (const [id, provider] of Object.entries(providers)) modelRuntime.registerProvider(id, provider);
	return modelRuntime;
}

/** `loader` options with a test's one inline `extension` loaded after the loader's own `extensionFactories`. */
export function withExtension(
	loader: Partial<DefaultResourceLoaderOptions> | undefined,
	extension: ExtensionFactory | undefined,
): Partial<DefaultResourceLoaderOptions> {
	return extension
		? { ...loader, extensionFactories: [...(loader?.extensionFactories ?? []), extension] }
		: { ...loader };
}

/** `DefaultResourceLoader` options that turn off discovery of every resource kind (only what a test adds loads). */
export const NO_RESOURCES = {
	noExtensions: true,
	noSkills: true,
	noPromptTemplates: true,
	noThemes: true,
	noContextFiles: true,
} as const;

/** A loaded resource loader that discovers no extensions, skills, prompts, themes or context files. */
export async function isolatedResourceLoader(
	options: Pick<DefaultResourceLoaderOptions, "cwd" | "agentDir" | "settingsManager"> &
		Partial<DefaultResourceLoaderOptions>,
): Promise<DefaultResourceLoader> {
	const resourceLoader = new DefaultResourceLoader({ ...NO_RESOURCES, ...options });
	await resourceLoader.reload();
	return resourceLoader;
}

export interface IsolatedSessionOptions {
	model: Model<Api>;
	modelRuntime: ModelRuntime;
	/** Default: a new temp dir. */
	cwd?: string;
	/** Default: a new temp agent dir. */
	agentDir?: string;
	/** Default: in-memory settings from `settings`, project untrusted. */
	settingsManager?: SettingsManager;
	settings?: Record<string, unknown>;
	/** Default: an in-memory session of `cwd`. */
	sessionManager?: SessionManager;
	loader?: Partial<DefaultResourceLoaderOptions>;
	session?: Partial<CreateAgentSessionOptions>;
}

export interface IsolatedSession {
	session: AgentSession;
	cwd: string;
	agentDir: string;
	settingsManager: SettingsManager;
	sessionManager: SessionManager;
	resourceLoader: DefaultResourceLoader;
}

/** A session over `model` with in-memory settings and session, and an isolated resource loader. */
export async function createIsolatedSession(options: IsolatedSessionOptions): Promise<IsolatedSession> {
	const cwd = options.cwd ?? tempDir();
	const agentDir = options.agentDir ?? tempAgentDir();
	const settingsManager =
		options.settingsManager ?? SettingsManager.inMemory({ ...options.settings }, { projectTrusted: false });
	const resourceLoader = await isolatedResourceLoader({ cwd, agentDir, settingsManager, ...options.loader });
	const sessionManager = options.sessionManager ?? SessionManager.inMemory(cwd);
	const { session } = await createAgentSession({
		cwd,
		agentDir,
		modelRuntime: options.modelRuntime,
		settingsManager,
		resourceLoader,
		sessionManager,
		model: options.model,
		...options.session,
	});
	return { session, cwd, agentDir, settingsManager, sessionManager, resourceLoader };
}
