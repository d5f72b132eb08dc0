import type { AuthorizationServerMetadata, McpOAuthDiscovery } from "./discovery.js";

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The cached discovery of a stored sign-in. pi 1.6 writes the same `mcp-auth.json` entries with
 * its own discovery shape (`authorizationServerUrl`, `authorizationServerMetadata`,
 * `resourceMetadata`); read as tau's, its tokens could not be refreshed. A shape that cannot be used
 * is dropped, so the next refresh discovers the servers again.
 */
export function readStoredDiscovery(value: unknown): McpOAuthDiscovery | undefined {
	if (!isObject(value)) return undefined;
	if (typeof value.authorizationServer === "string") return value as unknown as McpOAuthDiscovery;
	const metadata = value.authorizationServerMetadata;
	if (typeof value.authorizationServerUrl !== "string" || !isObject(metadata)) return undefined;
	if (typeof metadata.token_endpoint !== "string" || typeof metadata.authorization_endpoint !== "string") {
		return undefined;
	}
	const discovery: McpOAuthDiscovery = {
		authorizationServer: value.authorizationServerUrl,
		metadata: metadata as AuthorizationServerMetadata,
	};
	const resource = isObject(value.resourceMetadata) ? value.resourceMetadata : undefined;
	if (typeof resource?.resource === "string") discovery.resource = resource.resource;
	const scopes = resource?.scopes_supported;
	if (Array.isArray(scopes) && scopes.every((scope) => typeof scope === "string")) discovery.scopesSupported = scopes;
	return discovery;
}
