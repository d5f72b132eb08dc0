/**
 * The model endpoints of a mock GitHub Copilot seat, served by the mock OAuth server: the seat's
 * model list (`GET /models`) and the policy request that accepts a model's terms
 * (`POST /models/<id>/policy`). Both answer only a Copilot token the server issued.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** A Copilot seat's policy for one model: usable, refused by the organisation, or terms not yet accepted. */
export type MockCopilotPolicy = "enabled" | "disabled" | "unconfigured";

/** One model of the mock Copilot seat's model list. */
export interface MockCopilotModel {
	id: string;
	/** Offered in the editor's model picker (default true). */
	pickerEnabled?: boolean;
	/** The seat's policy for the model (default `enabled`). */
	policy?: MockCopilotPolicy;
	/** Set false for a model that cannot call tools. */
	toolCalls?: boolean;
}

/** What the mock Copilot seat serves: its models, and which requests fail. */
export interface MockCopilotSeatOptions {
	/** The seat's models (default: `claude-haiku-4.5` and `gpt-5.4-nano`, both usable). */
	models?: readonly MockCopilotModel[];
	/** Models whose policy request is answered with this HTTP status instead of enabling them. */
	policyFailures?: Readonly<Record<string, number>>;
	/** Answer the model list with this HTTP status instead. */
	modelListStatus?: number;
}

/** The mock Copilot seat's model-list and policy endpoints, as the OAuth mock serves them. */
export interface MockCopilotSeat {
	/** Remembers a Copilot token the server issued. */
	issue(token: string): void;
	/** The policy of each model now (after the policy requests so far). */
	readonly policies: ReadonlyMap<string, MockCopilotPolicy>;
	list(request: IncomingMessage, response: ServerResponse): void;
	policy(request: IncomingMessage, response: ServerResponse): void;
}

const DEFAULT_MODELS: readonly MockCopilotModel[] = [{ id: "claude-haiku-4.5" }, { id: "gpt-5.4-nano" }];

function send(response: ServerResponse, status: number, body: unknown): void {
	// A rate limit says to retry at once, so a client's retries cost a test no waiting.
	response.writeHead(status, {
		"content-type": "application/json",
		...(status === 429 ? { "retry-after": "0" } : {}),
	});
	response.end(JSON.stringify(body));
}

/** A mock Copilot seat whose policies change as the policy requests arrive. */
export function mockCopilotSeat(options: MockCopilotSeatOptions = {}): MockCopilotSeat {
	const models = options.models ?? DEFAULT_MODELS;
	const policies = new Map(models.map((model) => [model.id, model.policy ?? "enabled"]));
	const tokens = new Set<string>();
	const authorized = (request: IncomingMessage) =>
		tokens.has((request.headers.authorization ?? "").replace(/^Bearer /, ""));

	return {
		issue: (token) => tokens.add(token),
		policies,
		list(request, response) {
			if (!authorized(request)) return send(response, 401, { error: { message: "unauthorized" } });
			if (options.modelListStatus) {
				return send(response, options.modelListStatus, { error: { message: "model list unavailable" } });
			}
			send(response, 200, {
				object: "list",
				data: models.map((model) => ({
					id: model.id,
					object: "model",
					model_picker_enabled: model.pickerEnabled ?? true,
					policy: { state: policies.get(model.id) },
					capabilities: { supports: { tool_calls: model.toolCalls ?? true, streaming: true } },
				})),
			});
		},
		policy(request, response) {
			if (!authorized(request)) return send(response, 401, { error: { message: "unauthorized" } });
			const id = decodeURIComponent(/\/models\/([^/]+)\/policy$/.exec(request.url ?? "")?.[1] ?? "");
			if (!policies.has(id)) return send(response, 404, { error: { message: `no model ${id}` } });
			const failure = options.policyFailures?.[id];
			if (failure) return send(response, failure, { error: { message: `policy for ${id} refused` } });
			policies.set(id, "enabled");
			send(response, 200, { state: "enabled" });
		},
	};
}
