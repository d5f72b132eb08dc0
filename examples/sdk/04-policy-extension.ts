/**
 * An inline extension as a tool policy: a `tool_call` hook blocks the shell before it runs (the call
 * ends as an error result for the model; nothing executes). Hooks are a policy layer, not a sandbox.
 *
 * Run (after `npx tsc -b`): `npx jiti examples/sdk/04-policy-extension.ts` (Node 20.19+; Node 22.6+ also runs it with
 * `node --experimental-strip-types`)
 */
import {
	AuthStorage,
	createAgentSession,
	DEMO_MODEL_ID,
	DEMO_PROVIDER_ID,
	DefaultResourceLoader,
	defaultExtensionLoader,
	demoProvider,
	type ExtensionAPI,
	ModelRuntime,
	SessionManager,
	SettingsManager,
} from "@tau/coding-agent";

export async function run(options: { cwd: string; agentDir: string }) {
	const modelRuntime = new ModelRuntime({
		credentials: AuthStorage.inMemory(),
		builtinProviders: [],
		modelsJsonPath: null,
	});
	modelRuntime.registerProvider(DEMO_PROVIDER_ID, demoProvider());
	const settingsManager = SettingsManager.inMemory({}, { projectTrusted: false });
	const resourceLoader = new DefaultResourceLoader({
		cwd: options.cwd,
		agentDir: options.agentDir,
		settingsManager,
		loadExtensions: defaultExtensionLoader,
		noExtensions: true,
		noContextFiles: true,
		extensionFactories: [
			{
				name: "policy",
				factory: (pi: ExtensionAPI) => {
					pi.on("tool_call", async (event) =>
						event.toolName === "bash" ? { block: true, reason: "no shell in this product" } : undefined,
					);
				},
			},
		],
	});
	await resourceLoader.reload();
	const { session } = await createAgentSession({
		cwd: options.cwd,
		agentDir: options.agentDir,
		modelRuntime,
		model: modelRuntime.getModel(DEMO_PROVIDER_ID, DEMO_MODEL_ID),
		settingsManager,
		resourceLoader,
		sessionManager: SessionManager.inMemory(options.cwd),
	});
	// session_start (e.g. MCP connections) only happens once extensions are bound.
	await session.bindExtensions({});
	const blocked: string[] = [];
	session.subscribe((event) => {
		if (event.type === "tool_execution_end" && event.isError) blocked.push(event.toolName);
	});
	try {
		// With the default tools the demo model lists the directory through bash, which the policy blocks.
		await session.prompt("look around");
		const toolResult = session.messages.find((message) => message.role === "toolResult");
		return { blocked, toolResult };
	} finally {
		await session.shutdown();
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const result = await run({ cwd: process.cwd(), agentDir: `${process.cwd()}/.tau-example-agent` });
	console.log(`blocked: ${result.blocked.join(", ")}`);
}
