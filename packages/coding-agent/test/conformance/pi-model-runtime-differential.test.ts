import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ModelRuntime } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { PI_MISSING, piInstalled, piModuleUrl, runPiScript } from "../support/pi-reference.js";

/**
 * `ModelRuntime` as pi 1.6 documents it (docs/pi-compatibility.md): the same auth.json and
 * models.json give the same models, availability, auth status and virtual-model behaviour in tau and
 * pi. Only the providers the files define are compared; the built-in catalogs differ.
 */

const model = (id: string) => ({
	id,
	name: id,
	reasoning: false,
	input: ["text"],
	contextWindow: 100_000,
	maxTokens: 4096,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
});

function writeConfig(): { authPath: string; modelsPath: string } {
	const dir = mkdtempSync(join(tmpdir(), "tau-model-runtime-"));
	const modelsPath = join(dir, "models.json");
	const authPath = join(dir, "auth.json");
	const provider = (apiKey: string) => ({
		baseUrl: "http://127.0.0.1:9/v1",
		api: "openai-completions",
		apiKey,
		models: [model("m-1"), model("m-2")],
	});
	writeFileSync(
		modelsPath,
		JSON.stringify({
			providers: {
				// tau requires every models.json provider to name some auth (docs/models.md); an unset variable counts.
				keyed: provider("literal-key"),
				stored: provider("$TAU_PARITY_UNSET_KEY"),
				unkeyed: provider("$TAU_PARITY_UNSET_KEY"),
			},
		}),
	);
	writeFileSync(authPath, JSON.stringify({ stored: { type: "api_key", key: "from-auth-json" } }));
	return { authPath, modelsPath };
}

/** The observations, run against either implementation (as source text, so pi's script runs it too). */
async function observe(ModelRuntimeClass: any, paths: { authPath: string; modelsPath: string }) {
	const ours = (models: readonly { provider: string; id: string }[]) =>
		models
			.filter((m) => ["keyed", "stored", "unkeyed", "router"].includes(m.provider))
			.map((m) => `${m.provider}/${m.id}`)
			.sort();
	const runtime = await ModelRuntimeClass.create({ ...paths, refreshOnCreate: false });
	const before = ours(runtime.getAvailableSnapshot());
	const pending = runtime.getAvailable();
	const isPromise = typeof pending.then === "function";
	const available = ours(await pending);
	const found = runtime.getModel("keyed", "m-2");
	const status = ["keyed", "stored", "unkeyed"].map((id) => runtime.getProviderAuthStatus(id));
	const auth = ["keyed", "stored", "unkeyed"].map((id) => runtime.hasConfiguredAuth(id));
	await runtime.setRuntimeApiKey("unkeyed", "typed-now");
	const afterRuntimeKey = [runtime.hasConfiguredAuth("unkeyed"), runtime.getProviderAuthStatus("unkeyed")];
	runtime.registerVirtualModel({
		provider: "router",
		id: "auto",
		name: "Auto",
		thinkingLevels: ["low", "high"],
		route: () => ({ model: runtime.getModel("keyed", "m-1"), thinkingLevel: "high" }),
	});
	const virtual = runtime.getModel("router", "auto");
	const withVirtual = ours(runtime.getAvailableSnapshot());
	let conflict = "";
	try {
		runtime.registerVirtualModel({ provider: "keyed", id: "m-1", name: "x", route: () => ({}) });
	} catch (error) {
		conflict = (error as Error).message;
	}
	const route = await runtime.resolveModel(virtual, [], { reason: "user", thinkingLevel: "low" });
	runtime.unregisterVirtualModel("router", "auto");
	return {
		before,
		isPromise,
		available,
		found: found && {
			id: found.id,
			provider: found.provider,
			baseUrl: found.baseUrl,
			contextWindow: found.contextWindow,
		},
		status,
		auth,
		afterRuntimeKey,
		virtual: virtual && {
			api: virtual.api,
			reasoning: virtual.reasoning,
			input: virtual.input,
			contextWindow: virtual.contextWindow,
		},
		withVirtual,
		conflict,
		route: { model: `${route.model.provider}/${route.model.id}`, thinkingLevel: route.thinkingLevel },
		afterUnregister: runtime.getModel("router", "auto") ?? null,
	};
}

describe.skipIf(!piInstalled)(`ModelRuntime against pi 1.6 (${piInstalled ? "installed pi" : PI_MISSING})`, () => {
	it("reads the same files into the same models, availability, auth status and virtual models", async () => {
		const paths = writeConfig();
		const pi = await runPiScript(
			`const { ModelRuntime } = await import(input.module);\nconst observe = ${observe.toString()};\noutput = await observe(ModelRuntime, input.paths);`,
			{ module: piModuleUrl("pi-coding-agent"), paths },
		);
		const tau = await observe(ModelRuntime, paths);
		expect(tau.available).toEqual(["keyed/m-1", "keyed/m-2", "stored/m-1", "stored/m-2"]);
		expect(JSON.parse(JSON.stringify(tau))).toEqual(pi);
	}, 120_000);
});
