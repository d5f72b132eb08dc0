/*
 * The OAuth login callbacks pi extensions pass when they register a provider with its own login (pi-ai's
 * "legacy extension OAuth" surface), so such extensions type-check against tau.
 */

export interface OAuthPrompt {
	message: string;
	placeholder?: string;
	allowEmpty?: boolean;
}

/** A link the user opens to authorize. */
export interface OAuthAuthInfo {
	url: string;
	instructions?: string;
}

/** A device-code login: the code to enter at the verification page. */
export interface OAuthDeviceCodeInfo {
	userCode: string;
	verificationUri: string;
	/** Whether the host may open the page when the user confirms (default true). */
	openBrowserOnConfirm?: boolean;
	/** Whether the host may copy the code when the user confirms (default true). */
	copyCodeOnConfirm?: boolean;
	intervalSeconds?: number;
	expiresInSeconds?: number;
}

export interface OAuthSelectOption {
	id: string;
	label: string;
}

export interface OAuthSelectPrompt {
	message: string;
	options: OAuthSelectOption[];
}

export interface OAuthLoginCallbacks {
	onAuth(info: OAuthAuthInfo): void;
	onDeviceCode(info: OAuthDeviceCodeInfo): void;
	onPrompt(prompt: OAuthPrompt): Promise<string>;
	onProgress?(message: string): void;
	onManualCodeInput?(): Promise<string>;
	onSelect(prompt: OAuthSelectPrompt): Promise<string | undefined>;
	signal?: AbortSignal;
}
