/*
 * The OAuth login callbacks pi extensions pass when they register a provider with its own login (pi-ai's
 * "legacy extension OAuth" surface), so such extensions type-check against tau.
 */

/** A text question an extension's OAuth login asks the user. */
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

/** One choice of an `OAuthSelectPrompt`. */
export interface OAuthSelectOption {
	id: string;
	label: string;
}

/** A multiple-choice question an extension's OAuth login asks the user. */
export interface OAuthSelectPrompt {
	message: string;
	options: OAuthSelectOption[];
}

/**
 * The callbacks a pi-style extension's OAuth login calls to show a URL or device code, ask the user and report
 * progress.
 */
export interface OAuthLoginCallbacks {
	onAuth(info: OAuthAuthInfo): void;
	onDeviceCode(info: OAuthDeviceCodeInfo): void;
	onPrompt(prompt: OAuthPrompt): Promise<string>;
	onProgress?(message: string): void;
	onManualCodeInput?(): Promise<string>;
	onSelect(prompt: OAuthSelectPrompt): Promise<string | undefined>;
	signal?: AbortSignal;
}
