/**
 * GitHub Copilot sign-in (docs/providers.md): the GitHub device flow yields a GitHub token (kept as
 * the refresh token), which is exchanged for a short-lived Copilot token (the access token). The
 * Copilot token names the API host its requests go to (`proxy-ep`). Sign-in and refresh also store
 * which models the seat can use (github-copilot-models.ts).
 */
import type { AuthInteraction, ModelAuth, OAuthCredential } from "../../types/auth.js";
import { pollDeviceCode } from "./device-code-poll.js";
import {
	type CopilotApi,
	enableCopilotModels,
	fetchCopilotModelList,
	NO_RETRY,
	SIGN_IN_RETRY,
} from "./github-copilot-models.js";
import { oauthEndpoint } from "./oauth-endpoint.js";
import { oauthRequest, requireNumber, requireString } from "./token-request.js";

const PROVIDER = "GitHub Copilot";
const CLIENT_ID = "Iv1.b507a08c87ecfe98";
const DEFAULT_DOMAIN = "github.com";
const DEFAULT_API_URL = "https://api.individual.githubcopilot.com";
/** Copilot's token endpoint answers only clients that present themselves as a Copilot editor plugin. */
const EDITOR_HEADERS = {
	"User-Agent": "GitHubCopilotChat/0.35.0",
	"Editor-Version": "vscode/1.107.0",
	"Editor-Plugin-Version": "copilot-chat/0.35.0",
	"Copilot-Integration-Id": "vscode-chat",
};
const EXPIRY_MARGIN_MS = 5 * 60_000;

/** `company.ghe.com`, `https://company.ghe.com/…` → `company.ghe.com`; blank → undefined. */
export function enterpriseDomain(input: string): string | undefined {
	const trimmed = input.trim();
	if (!trimmed) return undefined;
	try {
		return new URL(trimmed.includes("://") ? trimmed : `https://${trimmed}`).hostname;
	} catch {
		throw new Error(`Not a GitHub Enterprise address: ${trimmed}`);
	}
}

/** The API origin a Copilot token names: its `proxy-ep` host with `proxy.` turned into `api.`. */
function copilotApiOrigin(token: string, enterprise: string | undefined): string {
	const proxy = /(?:^|;)proxy-ep=([^;]+)/.exec(token)?.[1];
	if (proxy) return `https://${proxy.replace(/^proxy\./, "api.")}`;
	return enterprise ? `https://copilot-api.${enterprise}` : DEFAULT_API_URL;
}

/** The API base URL for a Copilot token. */
export function copilotApiUrl(token: string, enterprise: string | undefined): string {
	return oauthEndpoint(copilotApiOrigin(token, enterprise)).replace(/\/$/, "");
}

function copilotApi(token: string, enterprise: string | undefined): CopilotApi {
	return {
		baseUrl: copilotApiUrl(token, enterprise),
		token,
		editorHeaders: EDITOR_HEADERS,
		individualPlan: copilotApiOrigin(token, enterprise) === DEFAULT_API_URL,
	};
}

async function exchangeForCopilotToken(
	githubToken: string,
	enterprise: string | undefined,
	signal: AbortSignal | undefined,
): Promise<OAuthCredential> {
	const json = await oauthRequest({
		provider: PROVIDER,
		method: "GET",
		url: oauthEndpoint(`https://api.${enterprise ?? DEFAULT_DOMAIN}/copilot_internal/v2/token`),
		headers: { Authorization: `Bearer ${githubToken}`, ...EDITOR_HEADERS },
		unauthorizedIsRejection: true,
		...(signal ? { signal } : {}),
	});
	return {
		type: "oauth",
		refresh: githubToken,
		access: requireString(json, "token", PROVIDER),
		expires: requireNumber(json, "expires_at", PROVIDER) * 1000 - EXPIRY_MARGIN_MS,
		...(enterprise ? { enterpriseUrl: enterprise } : {}),
	};
}

async function githubTokenByDeviceFlow(interaction: AuthInteraction, domain: string): Promise<string> {
	const signal = interaction.signal;
	const device = await oauthRequest({
		provider: PROVIDER,
		url: oauthEndpoint(`https://${domain}/login/device/code`),
		form: true,
		body: { client_id: CLIENT_ID, scope: "read:user" },
		headers: { "User-Agent": EDITOR_HEADERS["User-Agent"] },
		...(signal ? { signal } : {}),
	});
	const deviceCode = requireString(device, "device_code", PROVIDER);
	const verificationUri = requireString(device, "verification_uri", PROVIDER);
	if (!/^https?:\/\//.test(verificationUri)) throw new Error(`${PROVIDER} sent an unusable verification address`);
	await interaction.notify({
		type: "device_code",
		code: requireString(device, "user_code", PROVIDER),
		url: verificationUri,
		instructions: "Open the address and enter this code",
	});
	return pollDeviceCode<string>({
		provider: PROVIDER,
		intervalSeconds: typeof device.interval === "number" ? device.interval : 5,
		expiresInSeconds: requireNumber(device, "expires_in", PROVIDER),
		...(signal ? { signal } : {}),
		poll: async () => {
			const answer = await oauthRequest({
				provider: PROVIDER,
				url: oauthEndpoint(`https://${domain}/login/oauth/access_token`),
				form: true,
				body: {
					client_id: CLIENT_ID,
					device_code: deviceCode,
					grant_type: "urn:ietf:params:oauth:grant-type:device_code",
				},
				headers: { "User-Agent": EDITOR_HEADERS["User-Agent"] },
				...(signal ? { signal } : {}),
			});
			if (typeof answer.access_token === "string") return { status: "done", value: answer.access_token };
			if (answer.error === "authorization_pending") return { status: "pending" };
			if (answer.error === "slow_down") {
				return {
					status: "slow_down",
					...(typeof answer.interval === "number" ? { intervalSeconds: answer.interval } : {}),
				};
			}
			const detail = [answer.error, answer.error_description].filter((part) => typeof part === "string").join(": ");
			throw new Error(`${PROVIDER} device sign-in failed: ${detail || "unexpected answer"}`);
		},
	});
}

export async function login(interaction: AuthInteraction): Promise<OAuthCredential> {
	const answer = await interaction.prompt({
		type: "text",
		message: "GitHub Enterprise domain (leave blank for github.com)",
		placeholder: "company.ghe.com",
	});
	const enterprise = enterpriseDomain(answer);
	const githubToken = await githubTokenByDeviceFlow(interaction, enterprise ?? DEFAULT_DOMAIN);
	const credential = await exchangeForCopilotToken(githubToken, enterprise, interaction.signal);
	const api = copilotApi(credential.access, enterprise);
	const models = await fetchCopilotModelList(api, SIGN_IN_RETRY, interaction.signal);
	const available = [...models.availableModelIds];
	if (models.policyModelIds.length > 0) {
		await interaction.notify({ type: "progress", message: "Enabling models..." });
		const outcome = await enableCopilotModels(api, models.policyModelIds, interaction.signal);
		available.push(...outcome.enabled);
		if (outcome.failures.length > 0) {
			await interaction.notify({
				type: "info",
				message: `${PROVIDER} did not accept the terms of every model (the next sign-in tries again): ${outcome.failures.join("; ")}`,
			});
		}
	}
	return { ...credential, availableModelIds: [...new Set(available)] };
}

/** A new Copilot token, and the seat's current models with it. */
export async function refresh(credential: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential> {
	const enterprise =
		typeof credential.enterpriseUrl === "string" ? enterpriseDomain(credential.enterpriseUrl) : undefined;
	const fresh = await exchangeForCopilotToken(credential.refresh, enterprise, signal);
	const models = await fetchCopilotModelList(copilotApi(fresh.access, enterprise), NO_RETRY, signal);
	return { ...credential, ...fresh, availableModelIds: models.availableModelIds };
}

export async function toAuth(credential: OAuthCredential): Promise<ModelAuth> {
	const enterprise =
		typeof credential.enterpriseUrl === "string" ? enterpriseDomain(credential.enterpriseUrl) : undefined;
	return { apiKey: credential.access, baseUrl: copilotApiUrl(credential.access, enterprise) };
}
