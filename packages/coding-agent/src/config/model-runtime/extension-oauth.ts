import type { AuthInteraction, OAuthAuth, OAuthCredential, OAuthCredentials, OAuthLoginCallbacks } from "@tau/ai";

/**
 * The `oauth` block of an extension's `registerProvider(name, { oauth })` (docs/extensions.md): a
 * login driven through callbacks, a refresh and a key derivation. tau runs it like a built-in sign-in:
 * `/login` and `tau auth login` show it, the credential lands in auth.json and refreshes under its lock.
 */
export interface ExtensionOAuthConfig {
	name: string;
	isSubscription?: boolean;
	login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials>;
	refreshToken(credentials: OAuthCredentials, signal: AbortSignal): Promise<OAuthCredentials>;
	getApiKey(credentials: OAuthCredentials): string;
}

export function isExtensionOAuthConfig(value: unknown): value is ExtensionOAuthConfig {
	if (!value || typeof value !== "object") return false;
	const config = value as Partial<Record<keyof ExtensionOAuthConfig, unknown>>;
	return (
		typeof config.name === "string" &&
		typeof config.login === "function" &&
		typeof config.refreshToken === "function" &&
		typeof config.getApiKey === "function"
	);
}

/** The callbacks an extension's login calls, answered through tau's sign-in interaction. */
function callbacksFor(interaction: AuthInteraction): OAuthLoginCallbacks {
	return {
		onAuth: (info) => {
			void interaction.notify({
				type: "auth_url",
				url: info.url,
				...(info.instructions ? { instructions: info.instructions } : {}),
			});
		},
		onDeviceCode: (info) => {
			void interaction.notify({ type: "device_code", code: info.userCode, url: info.verificationUri });
		},
		onProgress: (message) => {
			void interaction.notify({ type: "progress", message });
		},
		onPrompt: async (prompt) => {
			for (;;) {
				const answer = await interaction.prompt({
					type: "text",
					message: prompt.message,
					...(prompt.placeholder ? { placeholder: prompt.placeholder } : {}),
				});
				if (answer !== "" || prompt.allowEmpty) return answer;
			}
		},
		onManualCodeInput: () => interaction.prompt({ type: "manual_code", message: "Paste the authorization code" }),
		onSelect: async (prompt) =>
			interaction.prompt({
				type: "select",
				message: prompt.message,
				options: prompt.options.map((option) => ({ value: option.id, label: option.label })),
			}),
		...(interaction.signal ? { signal: interaction.signal } : {}),
	};
}

function asCredential(credentials: OAuthCredentials): OAuthCredential {
	return { ...credentials, type: "oauth" };
}

export function extensionOAuth(config: ExtensionOAuthConfig): OAuthAuth {
	const oauth: OAuthAuth = {
		name: config.name,
		login: async (interaction) => asCredential(await config.login(callbacksFor(interaction))),
		refresh: async (credential, signal) => asCredential(await config.refreshToken(credential, signal)),
		toAuth: async (credential) => ({ apiKey: config.getApiKey(credential) }),
	};
	if (config.isSubscription !== undefined) oauth.isSubscription = config.isSubscription;
	return oauth;
}
