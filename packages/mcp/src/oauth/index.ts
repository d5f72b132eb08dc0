export { McpOAuthAuthorizationRequiredError } from "../errors.js";
export { createMcpAuthProvider, type McpAuthProviderOptions } from "./auth-provider.js";
export {
	documentsListRedirect,
	type McpClientMetadataDocuments,
	metadataDocumentCallbackId,
} from "./client-metadata-document.js";
export {
	type AuthorizationServerMetadata,
	discoverAuthorizationServerMetadata,
	discoverMcpOAuth,
	type McpOAuthDiscovery,
	oauthEndpoints,
} from "./discovery.js";
export {
	McpRefreshLockBusyError,
	McpSignInCancelledError,
	OAuthError,
	OAuthInsecureEndpointError,
	OAuthIssuerMismatchError,
	OAuthRegistrationError,
} from "./errors.js";
export { type AuthorizationResponse, responseFromRedirectUrl } from "./redirect-response.js";
export {
	completeMcpSignIn,
	type McpSignInCompletion,
	type McpSignInOptions,
	type McpSignInStart,
	refreshMcpTokens,
	startMcpSignIn,
	stepUpScope,
} from "./sign-in.js";
export {
	createMemoryOAuthStore,
	type McpOAuthClientInformation,
	type McpOAuthServerStore,
	type McpOAuthState,
	type McpOAuthStateStore,
	type McpOAuthTokens,
} from "./state.js";
export { parseWwwAuthenticate, type WwwAuthenticateChallenge } from "./www-authenticate.js";
