/**
 * A host that replaces sessions (/new, /resume, /fork): the runtime owns the current session and
 * rebuilds it through the factory; the host re-binds extensions and re-subscribes after each switch.
 *
 * Run (after `npx tsc -b`): `npx jiti examples/sdk/05-session-runtime.ts` (Node 20.19+; Node 22.6+ also runs it with
 * `node --experimental-strip-types`)
 */
import {
	type AgentSession,
	AuthStorage,
	createAgentSessionFromServices,
	createAgentSessionRuntime,
	createAgentSessionServices,
	DEMO_MODEL_ID,
	DEMO_PROVIDER_ID,
	demoProvider,
	ModelRuntime,
	SessionManager,
	SettingsManager,
} from "@tau/coding-agent";

export async function run(options: { cwd: string; agentDir: string; sessionDir: string }) {
	const modelRuntime = new ModelRuntime({
		credentials: AuthStorage.inMemory(),
		builtinProviders: [],
		modelsJsonPath: null,
	});
	modelRuntime.registerProvider(DEMO_PROVIDER_ID, demoProvider());
	const settingsManager = SettingsManager.inMemory(
		{ defaultProvider: DEMO_PROVIDER_ID, defaultModel: DEMO_MODEL_ID },
		{ projectTrusted: false },
	);
	const runtime = await createAgentSessionRuntime(
		async ({ cwd, sessionManager, sessionStartEvent }) => {
			const services = await createAgentSessionServices({
				cwd,
				agentDir: options.agentDir,
				modelRuntime,
				settingsManager,
				resourceLoaderOptions: { noExtensions: true, noContextFiles: true },
			});
			const created = await createAgentSessionFromServices({
				services,
				sessionManager,
				...(sessionStartEvent ? { sessionStartEvent } : {}),
			});
			return { ...created, services, diagnostics: services.diagnostics };
		},
		{
			cwd: options.cwd,
			agentDir: options.agentDir,
			sessionManager: SessionManager.create(options.cwd, options.sessionDir),
		},
	);
	const transcript: string[] = [];
	let unsubscribe = () => {};
	const attach = async (session: AgentSession) => {
		unsubscribe();
		await session.bindExtensions({});
		unsubscribe = session.subscribe((event) => {
			if (event.type === "agent_settled") transcript.push(`settled in ${session.sessionId}`);
		});
	};
	runtime.setRebindSession(attach);
	await attach(runtime.session);
	try {
		await runtime.session.prompt("first session");
		const firstFile = runtime.session.sessionFile;
		await runtime.newSession();
		await runtime.session.prompt("second session");
		// Back to the first conversation.
		if (firstFile) await runtime.switchSession(firstFile);
		return { transcript, resumedFile: runtime.session.sessionFile, firstFile };
	} finally {
		unsubscribe();
		await runtime.dispose();
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const result = await run({
		cwd: process.cwd(),
		agentDir: `${process.cwd()}/.tau-example-agent`,
		sessionDir: `${process.cwd()}/.tau-example-agent/sessions`,
	});
	console.log(result.transcript.join("\n"));
}
