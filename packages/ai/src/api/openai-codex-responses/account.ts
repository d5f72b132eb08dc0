import { normalizeProviderError } from "../shared/provider-error.js";

/** Where ChatGPT access tokens carry the account (`https://api.openai.com/auth` → `chatgpt_account_id`). */
const AUTH_CLAIM = "https://api.openai.com/auth";

/** The ChatGPT account id in an access token's claims. */
export function codexAccountId(token: string): string {
	const payload = token.split(".")[1];
	if (token.split(".").length === 3 && payload) {
		try {
			const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
			const account = (claims[AUTH_CLAIM] as { chatgpt_account_id?: unknown } | undefined)?.chatgpt_account_id;
			if (typeof account === "string" && account) return account;
		} catch {
			// Not a JWT: fall through to the error below.
		}
	}
	throw new Error("Failed to extract the ChatGPT account id from the access token (sign in to openai-codex again)");
}

/**
 * A usage-limit failure the backend sent without words of its own, as the user needs to read it; undefined
 * for every other failure (which keeps the provider's message).
 */
export function describeCodexError(error: unknown): string | undefined {
	const { status } = normalizeProviderError(error);
	const details = (
		error as {
			error?: { code?: unknown; type?: unknown; message?: unknown; plan_type?: unknown; resets_at?: unknown };
		} | null
	)?.error;
	if (typeof details?.message === "string" && details.message) return undefined;
	const code = String(details?.code ?? details?.type ?? "");
	if (!/usage_limit_reached|usage_not_included|rate_limit_exceeded/i.test(code) && status !== 429) return undefined;
	const plan = typeof details?.plan_type === "string" ? ` (${details.plan_type.toLowerCase()} plan)` : "";
	const resetsAt = typeof details?.resets_at === "number" ? details.resets_at : undefined;
	const minutes =
		resetsAt !== undefined ? Math.max(0, Math.round((resetsAt * 1000 - Date.now()) / 60_000)) : undefined;
	return `You have hit your ChatGPT usage limit${plan}.${minutes !== undefined ? ` Try again in ~${minutes} min.` : ""}`;
}
