/**
 * A browser sign-in on the loopback port a provider registered (docs/providers.md): the browser's
 * redirect when the port is free, or the final address the user pastes when the port is taken (the
 * Codex CLI shares OpenAI's) or the browser runs on another machine.
 */
import type { AuthInteraction } from "../../types/auth.js";
import {
	authorizationFromCallbackOrPaste,
	type CallbackAuthorization,
	startLoopbackCallback,
} from "./loopback-callback.js";
import { callbackPort } from "./oauth-endpoint.js";

export interface BrowserAuthorizationOptions {
	provider: string;
	/** What the user signs in to, for the instructions ("ChatGPT"). */
	account: string;
	port: number;
	path: string;
	redirectHost: string;
	state: string;
	/** The authorization address that names `redirectUri`. */
	authorizeUrl(redirectUri: string): string;
}

export interface BrowserAuthorization extends CallbackAuthorization {
	/** The `redirect_uri` the token exchange must repeat. */
	redirectUri: string;
}

export async function browserAuthorization(
	interaction: AuthInteraction,
	options: BrowserAuthorizationOptions,
): Promise<BrowserAuthorization> {
	const callback = await startLoopbackCallback({
		provider: options.provider,
		port: callbackPort(options.port),
		path: options.path,
		redirectHost: options.redirectHost,
		state: options.state,
		...(interaction.signal ? { signal: interaction.signal } : {}),
	}).catch(() => undefined);
	const redirectUri = callback?.redirectUri ?? `http://${options.redirectHost}:${options.port}${options.path}`;
	try {
		await interaction.notify({
			type: "auth_url",
			url: options.authorizeUrl(redirectUri),
			instructions: `Sign in to ${options.account} in your browser. If the browser runs on another machine, paste the address it ends on here.`,
		});
		const authorization = await authorizationFromCallbackOrPaste(
			interaction,
			callback,
			options.state,
			"Paste the final redirect URL",
		);
		await interaction.notify({ type: "progress", message: "Exchanging the authorization code…" });
		return { ...authorization, redirectUri };
	} finally {
		callback?.close();
	}
}
