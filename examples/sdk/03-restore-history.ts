/**
 * Restoring external history: build the session tree, never assign `agent.state.messages`.
 * The tree is the only authority for model context; each request re-projects it.
 *
 * Run (after `npx tsc -b`): `npx jiti examples/sdk/03-restore-history.ts` (Node 20.19+; Node 22.6+ also runs it with
 * `node --experimental-strip-types`)
 */
import {
	AuthStorage,
	createAgentSession,
	DEMO_MODEL_ID,
	DEMO_PROVIDER_ID,
	demoProvider,
	ModelRuntime,
	SessionManager,
	SettingsManager,
} from "@tau/coding-agent";

export async function run(options: { cwd: string; agentDir: string; history: { question: string; answer: string }[] }) {
	const modelRuntime = new ModelRuntime({
		credentials: AuthStorage.inMemory(),
		builtinProviders: [],
		modelsJsonPath: null,
	});
	modelRuntime.registerProvider(DEMO_PROVIDER_ID, demoProvider());
	const model = modelRuntime.getModel(DEMO_PROVIDER_ID, DEMO_MODEL_ID);
	if (!model) throw new Error("demo model missing");

	const sessionManager = SessionManager.inMemory(options.cwd);
	for (const turn of options.history) {
		sessionManager.appendMessage({ role: "user", content: turn.question, timestamp: Date.now() });
		sessionManager.appendMessage({
			role: "assistant",
			content: [{ type: "text", text: turn.answer }],
			api: model.api,
			provider: model.provider,
			model: model.id,
			usage: {
				input: 0,
				output: 0,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: 0,
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
			},
			stopReason: "stop",
			timestamp: Date.now(),
		});
	}
	const { session } = await createAgentSession({
		cwd: options.cwd,
		agentDir: options.agentDir,
		modelRuntime,
		model,
		settingsManager: SettingsManager.inMemory({}, { projectTrusted: false }),
		sessionManager,
	});
	try {
		await session.prompt("And now?");
		// Everything the model saw, in order: the restored turns, then the new one.
		return session.messages.filter((message) => message.role === "user" || message.role === "assistant");
	} finally {
		session.dispose();
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const messages = await run({
		cwd: process.cwd(),
		agentDir: `${process.cwd()}/.tau-example-agent`,
		history: [{ question: "earlier question", answer: "earlier answer" }],
	});
	console.log(`${messages.length} messages in context`);
}
