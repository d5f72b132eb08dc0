import type { Provider } from "@tau/ai";
import { APP_NAME } from "../config/app-identity.js";
import type { ModelRuntime } from "../config/index.js";
import { errorMessage } from "../core/errors.js";
import type { MainIO } from "./main-io.js";

/** How long `tau auth login` waits for the provider's catalog before leaving it to the next start. */
const CATALOG_REFRESH_TIMEOUT_MS = 15_000;

/**
 * What `tau auth login` does once the credential is saved (docs/cli.md "auth"): a provider whose catalog
 * depends on the account (Radius) fetches it now, so the next start lists the models even offline; and
 * signing in to Radius points the Radius MCP server in the global mcp.json at that login, without
 * asking (the login is what the server needs), unless a global server already uses it.
 */
export async function afterLogin(
	provider: Provider,
	runtime: ModelRuntime,
	context: { io: MainIO; agentDir: string; signal: AbortSignal },
): Promise<void> {
	if (provider.refreshModels) await refreshCatalog(provider, runtime, context);
	if (provider.id === "radius") await configureRadiusMcpServer(provider, context);
}

async function refreshCatalog(
	provider: Provider,
	runtime: ModelRuntime,
	{ io, signal }: { io: MainIO; signal: AbortSignal },
): Promise<void> {
	try {
		const result = await runtime.refresh({
			providers: [provider.id],
			allowNetwork: true,
			signal: AbortSignal.any([signal, AbortSignal.timeout(CATALOG_REFRESH_TIMEOUT_MS)]),
		});
		const failure = result.errors.get(provider.id);
		if (result.aborted) {
			io.stderr(
				`The ${provider.name} model catalog was not refreshed in time; ${APP_NAME} refreshes it on next start.\n`,
			);
		} else if (failure) {
			io.stderr(
				`The ${provider.name} model catalog could not be refreshed (${errorMessage(failure)}); ${APP_NAME} retries on next start.\n`,
			);
		}
	} catch (error) {
		io.stderr(`The ${provider.name} model catalog could not be refreshed: ${errorMessage(error)}\n`);
	}
}

async function configureRadiusMcpServer(provider: Provider, { io, agentDir }: { io: MainIO; agentDir: string }) {
	const { planRadiusMcpServer, writeRadiusMcpServer } = await import("../config/mcp-json/radius-mcp-server.js");
	const plan = planRadiusMcpServer(provider.id, agentDir);
	if (!plan) return;
	try {
		const replaced = writeRadiusMcpServer(plan);
		io.stdout(
			`${replaced ? "Updated" : "Added"} MCP server "${plan.name}" in ${plan.mcpPath} to use the ${provider.name} login.\n`,
		);
	} catch (error) {
		io.stderr(`Could not update ${plan.mcpPath}: ${errorMessage(error)}\n`);
	}
}
