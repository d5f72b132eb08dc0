/**
 * The smallest useful SDK program: create a session, stream the answer, print the final text.
 * It uses the built-in offline demo model, so it runs without a key or network; drop the
 * `modelRuntime`/`model` options to use your configured providers instead.
 *
 * Run (after `npx tsc -b`): `npx jiti examples/sdk/01-minimal.ts` (Node 20.19+; Node 22.6+ also runs it with
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

export async function run(options: { cwd: string; agentDir: string; write: (text: string) => void }) {
	const modelRuntime = new ModelRuntime({
		credentials: AuthStorage.inMemory(),
		builtinProviders: [],
		modelsJsonPath: null,
	});
	modelRuntime.registerProvider(DEMO_PROVIDER_ID, demoProvider());
	const { session } = await createAgentSession({
		cwd: options.cwd,
		agentDir: options.agentDir,
		modelRuntime,
		model: modelRuntime.getModel(DEMO_PROVIDER_ID, DEMO_MODEL_ID),
		settingsManager: SettingsManager.inMemory({}, { projectTrusted: false }),
		sessionManager: SessionManager.inMemory(options.cwd),
	});
	const off = session.subscribe((event) => {
		if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
			options.write(event.assistantMessageEvent.delta);
		}
	});
	try {
		// Resolves after `agent_settled`: retries and compaction are over, nothing more will run.
		await session.prompt("Summarize this repo");
		return session.getLastAssistantText();
	} finally {
		off();
		session.dispose();
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const answer = await run({
		cwd: process.cwd(),
		agentDir: `${process.cwd()}/.tau-example-agent`,
		write: (text) => process.stdout.write(text),
	});
	console.log(`\n\nfinal: ${answer}`);
}
