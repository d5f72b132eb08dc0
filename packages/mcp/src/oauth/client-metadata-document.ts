import { createHash } from "node:crypto";
import type { McpOAuthConfig } from "../config/server-config.js";
import type { AuthorizationServerMetadata } from "./discovery.js";

/**
 * Client ID metadata documents (CIMD) the application publishes: `<baseUrl>/client.json` and
 * `<baseUrl>/<callbackId>/client.json`, listing `/callback` on `127.0.0.1`/`localhost` (any port).
 */
export interface McpClientMetadataDocuments {
	/** https URL with a non-root path, without a trailing slash. */
	baseUrl: string;
}

/** The client identity a metadata document provides: the document URL is the `client_id`. */
export interface MetadataDocumentClient {
	clientId: string;
	/** The redirect URI to use; server-specific when the AS cannot tell callers apart by `iss`. */
	redirectUrl: string;
}

/** Whether the published documents list this redirect URI (`http://127.0.0.1|localhost:<any>/callback`). */
export function documentsListRedirect(redirectUrl: string): boolean {
	if (!URL.canParse(redirectUrl)) return false;
	const url = new URL(redirectUrl);
	return (
		url.protocol === "http:" &&
		(url.hostname === "127.0.0.1" || url.hostname === "localhost") &&
		url.pathname === "/callback" &&
		url.search === "" &&
		url.hash === ""
	);
}

/** base64url of the first 9 bytes of SHA-256(server URL without fragment): one callback path per server. */
export function metadataDocumentCallbackId(serverUrl: string): string {
	const url = new URL(serverUrl);
	url.hash = "";
	return createHash("sha256").update(url.href).digest().subarray(0, 9).toString("base64url");
}

function assertDocumentBase(baseUrl: string): string {
	const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
	if (url?.protocol !== "https:" || url.pathname === "/")
		throw new Error(`Client metadata documents need an https URL with a path, got ${baseUrl}`);
	return url.href.replace(/\/+$/, "");
}

function supportsMetadataDocuments(metadata: AuthorizationServerMetadata | undefined): boolean {
	return (
		metadata?.client_id_metadata_document_supported === true &&
		(metadata.token_endpoint_auth_methods_supported ?? []).includes("none")
	);
}

/**
 * The CIMD client for this sign-in, or undefined when another identity applies. `cimd` insists (and
 * fails without documents or AS support); `auto` uses CIMD only without a configured client id or
 * name, with documents listing the redirect, and with an AS that accepts them.
 */
export function metadataDocumentClient(options: {
	serverUrl: string;
	redirectUrl: string;
	settings: McpOAuthConfig;
	documents: McpClientMetadataDocuments | undefined;
	metadata: AuthorizationServerMetadata | undefined;
}): MetadataDocumentClient | undefined {
	const registration = options.settings.clientRegistration ?? "auto";
	if (registration === "dcr") return undefined;
	const { documents, metadata } = options;
	if (registration === "auto") {
		if (options.settings.clientId || options.settings.clientName) return undefined;
		if (!documents || !documentsListRedirect(options.redirectUrl) || !supportsMetadataDocuments(metadata))
			return undefined;
	} else {
		if (!documents) throw new Error('"clientRegistration": "cimd" needs client metadata documents');
		if (!supportsMetadataDocuments(metadata))
			throw new Error("The authorization server does not accept client ID metadata documents");
	}
	const base = assertDocumentBase(documents.baseUrl);
	// With `iss` in the response the AS distinguishes servers; without it, each server gets its own
	// document and callback path (mix-up defense, RFC 9700 §4.4.2.2).
	if (metadata?.authorization_response_iss_parameter_supported)
		return { clientId: `${base}/client.json`, redirectUrl: options.redirectUrl };
	const callbackId = metadataDocumentCallbackId(options.serverUrl);
	const redirect = new URL(options.redirectUrl);
	redirect.pathname = `${redirect.pathname.replace(/\/+$/, "")}/${callbackId}`;
	return { clientId: `${base}/${callbackId}/client.json`, redirectUrl: redirect.href };
}
