import type { Api, Model } from "@tau/ai";
import { type ModelRuntime, resolveCliModel } from "../../config/index.js";
import { DEMO_MODEL_ID, DEMO_PROVIDER_ID, demoProvider } from "../../core/demo/demo-provider.js";

/** The agent setup under measurement: the same for every trial of a run (stored in `run.json`). */
export interface AgentSetup {
	/** `provider/id` (or a pattern `--model` accepts); `demo/offline` is the built-in offline demo model. */
	model: string;
	thinking?: string;
	/** `-e` sources, resolved against the directory the run started in. */
	extensions: string[];
	/** `--skill` paths, resolved likewise. */
	skills: string[];
	/** `--settings`: a settings.json every trial's fresh agent dir starts from. */
	settingsFile?: string;
	/** `--timeout` seconds: overrides each task's `agent.timeout_sec`. */
	timeoutSec?: number;
}

/** Resolves the setup's model in a trial's model runtime; throws a user-facing error when it is unknown. */
export async function resolveSetupModel(runtime: ModelRuntime, spec: string): Promise<Model<Api>> {
	if (spec === `${DEMO_PROVIDER_ID}/${DEMO_MODEL_ID}`) {
		runtime.registerProvider(DEMO_PROVIDER_ID, demoProvider());
	}
	// Credentials from auth.json count only once availability has been checked.
	await runtime.refreshAvailability();
	const selection = resolveCliModel({
		model: spec,
		hasApiKey: false,
		models: () => runtime.getModels(),
		catalog: {
			providerIds: () => runtime.getProviders().map((provider) => provider.id),
			find: (provider, id) => runtime.getModel(provider, id),
		},
		usable: (provider) => runtime.hasConfiguredAuth(provider),
	});
	if (!selection) throw new Error("--model is required");
	return selection.model as Model<Api>;
}
