/**
 * A reproducible product session: in-memory settings, no personal configuration, no project
 * instructions (AGENTS.md, SYSTEM.md, APPEND_SYSTEM.md) and no discovered extensions, a read-only
 * tool set, and the product's own rules appended to the default prompt.
 *
 * Run (after `npx tsc -b`): `npx jiti examples/sdk/02-isolated-resources.ts` (Node 20.19+; Node 22.6+ also runs it with
 * `node --experimental-strip-types`)
 */
import {
	AuthStorage,
	createAgentSession,
	DEMO_MODEL_ID,
	DEMO_PROVIDER_ID,
	DefaultResourceLoader,
	demoProvider,
	ModelRuntime,
	SessionManager,
	SettingsManager,
} from "@tau/coding-agent";

export const PRODUCT_RULES = "Read the evidence and cite file paths. Never modify files.";

/** The isolated loader: every discovery switch off, the discovered SYSTEM.md ignored, our rules appended. */
export async function isolatedResources(cwd: string, agentDir: string, settingsManager: SettingsManager) {
	const resourceLoader = new DefaultResourceLoader({
		cwd,
		agentDir,
		settingsManager,
		noExtensions: true,
		noSkills: true,
		noPromptTemplates: true,
		noThemes: true,
		noContextFiles: true,
		systemPromptOverride: () => undefined,
		appendSystemPromptOverride: () => [PRODUCT_RULES],
		agentsFilesOverride: () => ({ agentsFiles: [] }),
	});
	await resourceLoader.reload();
	return resourceLoader;
}

export async function run(options: { cwd: string; agentDir: string }) {
	const modelRuntime = new ModelRuntime({
		credentials: AuthStorage.inMemory(),
		builtinProviders: [],
		modelsJsonPath: null,
	});
	modelRuntime.registerProvider(DEMO_PROVIDER_ID, demoProvider());
	// Untrusted: project settings and project SYSTEM.md / APPEND_SYSTEM.md are never imported.
	const settingsManager = SettingsManager.inMemory(
		{ compaction: { enabled: false }, retry: { enabled: true, maxRetries: 1 } },
		{ projectTrusted: false },
	);
	const { session } = await createAgentSession({
		cwd: options.cwd,
		agentDir: options.agentDir,
		modelRuntime,
		model: modelRuntime.getModel(DEMO_PROVIDER_ID, DEMO_MODEL_ID),
		settingsManager,
		resourceLoader: await isolatedResources(options.cwd, options.agentDir, settingsManager),
		tools: ["read", "grep", "find", "ls"],
		sessionManager: SessionManager.inMemory(options.cwd),
	});
	try {
		await session.prompt("What is in this directory?");
		return {
			answer: session.getLastAssistantText(),
			systemPrompt: session.systemPrompt,
			tools: session.getActiveToolNames(),
		};
	} finally {
		session.dispose();
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const result = await run({ cwd: process.cwd(), agentDir: `${process.cwd()}/.tau-example-agent` });
	console.log(result.answer);
	console.log(`tools: ${result.tools.join(", ")}`);
}
