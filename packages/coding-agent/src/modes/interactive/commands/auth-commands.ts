import type { AuthInteraction, AuthPrompt, Provider } from "@tau/ai";
import type { BuiltinCommand, CommandHost } from "./command-host.js";

/** How a provider sign-in talks to the user: prompts in place of the editor, notices in the chat. */
function interactionFor(host: CommandHost, signal: AbortSignal): AuthInteraction {
	const ask = async (prompt: AuthPrompt): Promise<string> => {
		let answer: string | undefined;
		if (prompt.type === "select") {
			answer = (
				await host.pick(
					prompt.message,
					prompt.options.map((o) => ({ ...o, description: o.hint ?? "" })),
				)
			)?.value;
		} else {
			// A pasted code is no longer asked for once the browser has delivered it.
			const withdrawn = prompt.type === "manual_code" ? prompt.signal : undefined;
			answer = await host.ask(prompt.message, {
				...(prompt.placeholder ? { placeholder: prompt.placeholder } : {}),
				...(prompt.type === "text" && prompt.default ? { prefill: prompt.default } : {}),
				signal: withdrawn ? AbortSignal.any([signal, withdrawn]) : signal,
			});
		}
		if (answer === undefined) throw new Error("Login cancelled");
		return answer;
	};
	return {
		signal,
		prompt: ask,
		notify: (notification) => {
			switch (notification.type) {
				case "auth_url":
					host.notify("info", `${notification.instructions ?? "Open this URL to sign in:"} ${notification.url}`);
					break;
				case "device_code":
					host.notify(
						"info",
						`${notification.instructions ?? "Enter the code"} ${notification.code} at ${notification.url}`,
					);
					break;
				default:
					host.notify("info", notification.message);
			}
		},
	};
}

async function login(host: CommandHost, argument: string): Promise<void> {
	const runtime = host.session.modelRuntime;
	const providers = runtime.models.getProviders().filter((p) => p.auth.apiKey || p.auth.oauth);
	const wanted = argument.trim();
	const provider =
		providers.find((p) => p.id === wanted) ??
		(await (async () => {
			const chosen = await host.pick(
				"Log in to",
				providers.map((p) => ({ value: p.id, label: p.name, description: p.id })),
				{ filter: wanted },
			);
			return providers.find((p) => p.id === chosen?.value);
		})());
	if (!provider) return;
	// The terminal's program status shows the sign-in as waiting for the user (docs/design/interactive.md#program-status).
	const unblock = host.block("auth", `Sign in to ${provider.name}`);
	try {
		await signIn(host, provider);
	} finally {
		unblock();
	}
}

async function signIn(host: CommandHost, provider: Provider): Promise<void> {
	const runtime = host.session.modelRuntime;
	let type: "api_key" | "oauth" = provider.auth.oauth ? "oauth" : "api_key";
	if (provider.auth.oauth && provider.auth.apiKey) {
		const method = await host.pick(`Sign in to ${provider.name}`, [
			{ value: "oauth", label: provider.auth.oauth.loginLabel ?? "Sign in with your account" },
			{ value: "api_key", label: "Enter an API key" },
		]);
		if (!method) return;
		type = method.value as "api_key" | "oauth";
	}
	const controller = new AbortController();
	try {
		await runtime.login(provider.id, type, interactionFor(host, controller.signal), {
			agentName: host.appName,
			getDeviceId: () => host.session.settingsManager.getOrCreateDeviceId(),
		});
		host.notify("success", `✓ Logged in to ${provider.name}`);
		host.refreshFooter();
	} catch (error) {
		controller.abort();
		host.notify("error", `Login failed: ${(error as Error).message}`);
		return;
	}
	if (provider.refreshModels) refreshCatalogInBackground(host, provider);
	if (provider.id === "radius") await offerRadiusMcpServer(host, provider);
}

/** How long a catalog fetched after a sign-in may take before the cached list stays. */
const CATALOG_REFRESH_TIMEOUT_MS = 15_000;

/**
 * A catalog that depends on the account (Radius) is fetched with the new credential right away, in the
 * background; until it arrives, and when it fails, the cached or shipped list stays.
 */
function refreshCatalogInBackground(host: CommandHost, provider: Provider): void {
	const cached = "using the cached model list";
	void host.session.modelRuntime
		.refresh({ providers: [provider.id], signal: AbortSignal.timeout(CATALOG_REFRESH_TIMEOUT_MS) })
		.then((result) => {
			const failure = result.errors.get(provider.id);
			if (result.aborted) host.notify("warning", `The ${provider.name} model catalog refresh timed out; ${cached}`);
			else if (failure) {
				host.notify(
					"warning",
					`The ${provider.name} model catalog could not be refreshed (${failure.message}); ${cached}`,
				);
			}
			host.refreshFooter();
		})
		.catch((error: unknown) =>
			host.notify(
				"warning",
				`The ${provider.name} model catalog could not be refreshed: ${(error as Error).message}`,
			),
		);
}

/**
 * After a Radius sign-in, offers to point the Radius MCP server in the global mcp.json at that login
 * (adding it when missing); nothing is asked when a global server already uses it (docs/providers.md "Radius").
 */
async function offerRadiusMcpServer(host: CommandHost, provider: Provider): Promise<void> {
	const { planRadiusMcpServer, writeRadiusMcpServer } = await import("../../../config/mcp-json/radius-mcp-server.js");
	const plan = planRadiusMcpServer(provider.id, host.agentDir);
	if (!plan) return;
	const answer = await host.pick(`Configure ${provider.name} MCP in ${plan.mcpPath}?`, [
		{ value: "yes", label: "Yes" },
		{ value: "no", label: "No" },
	]);
	if (answer?.value !== "yes") return;
	try {
		writeRadiusMcpServer(plan);
	} catch (error) {
		host.notify("error", `Could not update ${plan.mcpPath}: ${(error as Error).message}`);
		return;
	}
	// The MCP extension reads mcp.json when the session starts.
	await host.reload();
}

async function logout(host: CommandHost): Promise<void> {
	const runtime = host.session.modelRuntime;
	const stored = await runtime.credentials.list();
	if (stored.length === 0) {
		host.notify("info", "No stored credentials");
		return;
	}
	const chosen = await host.pick(
		"Log out of",
		stored.map((info) => ({
			value: info.providerId,
			label: runtime.getProviderDisplayName(info.providerId),
			description: info.type === "oauth" ? "account" : "API key",
		})),
	);
	if (!chosen) return;
	await runtime.logout(chosen.value);
	host.notify("success", `✓ Logged out of ${runtime.getProviderDisplayName(chosen.value)}`);
	host.refreshFooter();
}

export const authCommands: readonly BuiltinCommand[] = [
	{ name: "login", description: "Sign in to a provider", takesArgument: true, run: login },
	{ name: "logout", description: "Remove stored credentials", takesArgument: false, run: logout },
];
