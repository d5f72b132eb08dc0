/**
 * Which models a GitHub Copilot seat may use (docs/providers.md). Copilot lists the seat's models with
 * two flags each: whether the editor's model picker offers it, and the state of its policy (`enabled`,
 * `disabled`, or `unconfigured`: the user has not accepted the model's terms yet). A sign-in accepts
 * the terms of the unconfigured models tau knows, as the Copilot editor plugins do when a model is
 * first chosen, and stores the ids the seat can use in the credential (`availableModelIds`, Pi's field).
 */
import { setTimeout as delay } from "node:timers/promises";
import { shippedModels } from "../../providers/catalog/shipped-catalog.js";

const PROVIDER = "GitHub Copilot";
const REQUEST_TIMEOUT_MS = 5_000;
const ERROR_BODY_LIMIT = 300;

/** Where the seat's Copilot API is and how to call it. */
export interface CopilotApi {
	/** The API base URL (no trailing slash). */
	baseUrl: string;
	/** The Copilot token. */
	token: string;
	/** The editor identity the Copilot API answers. */
	editorHeaders: Record<string, string>;
	/**
	 * The seat is on the individual plan's host. Some individual seats report every model as absent
	 * from the picker while their policies are enabled; only there do the policies decide instead.
	 */
	individualPlan: boolean;
}

/** How long a rate-limited (429) request is retried: at most `retries` more times within `budgetMs`. */
export interface RateLimitRetry {
	retries: number;
	budgetMs: number;
}

export const NO_RETRY: RateLimitRetry = { retries: 0, budgetMs: 0 };
export const SIGN_IN_RETRY: RateLimitRetry = { retries: 2, budgetMs: 5_000 };

export interface CopilotModelList {
	/** Models the seat can use now. */
	availableModelIds: string[];
	/** Models whose terms are still to accept (and tau knows). */
	policyModelIds: string[];
}

interface SeatModel {
	id: string;
	inPicker: boolean;
	policy: unknown;
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
	value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

function knownChatModelIds(): Set<string> {
	return new Set(
		shippedModels("github-copilot")
			.filter((model) => model.type === undefined || model.type === "chat")
			.map((model) => model.id),
	);
}

/** Reads Copilot's `/models` answer; models that cannot call tools are of no use to an agent and left out. */
export function parseCopilotModelList(json: unknown, individualPlan: boolean): CopilotModelList {
	const data = asRecord(json)?.data;
	if (!Array.isArray(data)) throw new Error(`${PROVIDER} answered the model list without a "data" list`);
	const seat: SeatModel[] = [];
	for (const entry of data) {
		const item = asRecord(entry);
		if (!item || typeof item.id !== "string") continue;
		if (asRecord(asRecord(item.capabilities)?.supports)?.tool_calls === false) continue;
		seat.push({ id: item.id, inPicker: item.model_picker_enabled === true, policy: asRecord(item.policy)?.state });
	}
	const picker = seat.filter((model) => model.inPicker && model.policy !== "disabled").map((model) => model.id);
	const byPolicy = individualPlan && picker.length === 0;
	const known = knownChatModelIds();
	return {
		availableModelIds: byPolicy
			? seat.filter((model) => model.policy === "enabled").map((model) => model.id)
			: picker,
		policyModelIds: seat
			.filter((model) => model.policy === "unconfigured" && known.has(model.id) && (model.inPicker || byPolicy))
			.map((model) => model.id),
	};
}

/**
 * `fetch` that waits and retries while the answer is 429 (after `retry-after`, else 0.5 s doubling),
 * within the retry budget; the last answer is returned either way.
 */
async function fetchRetryingRateLimit(
	url: string,
	init: RequestInit,
	retry: RateLimitRetry,
	signal: AbortSignal | undefined,
): Promise<Response> {
	const deadline = Date.now() + retry.budgetMs;
	for (let attempt = 0; ; attempt++) {
		const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
		const response = await fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
		if (response.status !== 429 || attempt >= retry.retries) return response;
		const retryAfter = response.headers.get("retry-after");
		let wait = 500 * 2 ** attempt;
		if (retryAfter !== null) {
			const seconds = Number.parseFloat(retryAfter);
			wait = Number.isNaN(seconds) ? Date.parse(retryAfter) - Date.now() : seconds * 1000;
			if (!Number.isFinite(wait)) return response;
		}
		wait = Math.max(0, wait);
		if (wait >= deadline - Date.now()) return response;
		await response.body?.cancel();
		await delay(wait, undefined, signal ? { signal } : {});
	}
}

async function failure(what: string, response: Response): Promise<Error> {
	const text = (await response.text().catch(() => "")).trim().slice(0, ERROR_BODY_LIMIT);
	return new Error(`${PROVIDER} ${what} failed (HTTP ${response.status})${text ? `: ${text}` : ""}`);
}

/** The seat's models; a failed request is an error naming the status and Copilot's answer. */
export async function fetchCopilotModelList(
	api: CopilotApi,
	retry: RateLimitRetry,
	signal: AbortSignal | undefined,
): Promise<CopilotModelList> {
	const response = await fetchRetryingRateLimit(
		`${api.baseUrl}/models`,
		{
			headers: {
				Accept: "application/json",
				Authorization: `Bearer ${api.token}`,
				...api.editorHeaders,
				"X-GitHub-Api-Version": "2026-06-01",
			},
		},
		retry,
		signal,
	);
	if (!response.ok) throw await failure("model list request", response);
	let json: unknown;
	try {
		json = await response.json();
	} catch {
		throw new Error(`${PROVIDER} answered the model list with a body that is not JSON`);
	}
	return parseCopilotModelList(json, api.individualPlan);
}

/** The answer to one policy request: enabled, or why not (`stop`: rate-limited beyond the retries). */
type PolicyAnswer = { enabled: true } | { enabled: false; reason: string; stop: boolean };

async function enableModel(api: CopilotApi, modelId: string, signal: AbortSignal | undefined): Promise<PolicyAnswer> {
	let response: Response;
	try {
		response = await fetchRetryingRateLimit(
			`${api.baseUrl}/models/${modelId}/policy`,
			{
				method: "POST",
				headers: {
					"Content-Type": "application/json",
					Authorization: `Bearer ${api.token}`,
					...api.editorHeaders,
					"openai-intent": "chat-policy",
					"x-interaction-type": "chat-policy",
				},
				body: JSON.stringify({ state: "enabled" }),
			},
			SIGN_IN_RETRY,
			signal,
		);
	} catch (error) {
		if (signal?.aborted) throw error;
		return { enabled: false, reason: error instanceof Error ? error.message : String(error), stop: false };
	}
	if (response.ok) {
		await response.body?.cancel();
		return { enabled: true };
	}
	const reason = (await failure(`policy request for ${modelId}`, response)).message;
	return { enabled: false, reason, stop: response.status === 429 };
}

export interface PolicyOutcome {
	/** The models Copilot enabled. */
	enabled: string[];
	/** Why each other model was not enabled (a rate limit also skips the models after it). */
	failures: string[];
}

/**
 * Accepts the terms of each model in turn. Best effort, as in Pi: a refused model is left out, and a
 * rate limit that outlasts the retries stops the rest (they stay unconfigured until the next sign-in);
 * only cancelling the sign-in throws.
 */
export async function enableCopilotModels(
	api: CopilotApi,
	modelIds: readonly string[],
	signal: AbortSignal | undefined,
): Promise<PolicyOutcome> {
	const outcome: PolicyOutcome = { enabled: [], failures: [] };
	for (const [index, modelId] of modelIds.entries()) {
		const answer = await enableModel(api, modelId, signal);
		if (answer.enabled) {
			outcome.enabled.push(modelId);
			continue;
		}
		outcome.failures.push(answer.reason);
		if (answer.stop) {
			const skipped = modelIds.slice(index + 1);
			if (skipped.length > 0) outcome.failures.push(`not tried after the rate limit: ${skipped.join(", ")}`);
			break;
		}
	}
	return outcome;
}
