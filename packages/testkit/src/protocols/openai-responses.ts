import type { ResolvedBlock, ResolvedTurn } from "../scenario/resolve.js";
import { splitIntoPieces } from "../scenario/resolve.js";
import type { MockStopReason } from "../scenario/turn.js";
import { openAiError, openAiErrorBody, openAiOverflowBody } from "./openai-errors.js";
import { type JsonReply, type ProtocolContext, sseFrame, type WireProtocol } from "./protocol.js";

/** `status` or `status:reason` of the finished response per neutral stop reason. */
const STATUSES: Record<Exclude<MockStopReason, "error">, string> = {
	stop: "completed",
	length: "incomplete:max_output_tokens",
	toolUse: "completed",
	stopSequence: "completed",
	pauseTurn: "completed",
	refusal: "incomplete:content_filter",
	contentFilter: "incomplete:content_filter",
};

type Item = Record<string, unknown>;

function usageOf(turn: ResolvedTurn): Record<string, unknown> {
	const { usage } = turn;
	const input = usage.input + usage.cacheRead + usage.cacheWrite;
	return {
		input_tokens: input,
		input_tokens_details: {
			cached_tokens: usage.cacheRead,
			...(usage.cacheWrite > 0 ? { cache_write_tokens: usage.cacheWrite } : {}),
		},
		output_tokens: usage.output,
		output_tokens_details: { reasoning_tokens: usage.reasoning },
		total_tokens: input + usage.output,
	};
}

function wantsEncryptedReasoning(ctx: ProtocolContext): boolean {
	const include = ctx.requestBody.include;
	return Array.isArray(include) && include.includes("reasoning.encrypted_content");
}

/** The response object; `output` and the terminal fields are filled in as the stream progresses. */
function responseShell(turn: ResolvedTurn, id: string, ctx: ProtocolContext): Record<string, unknown> {
	const body = ctx.requestBody;
	return {
		id,
		object: "response",
		created_at: ctx.createdAt,
		status: "in_progress",
		background: false,
		error: null,
		incomplete_details: null,
		instructions: body.instructions ?? null,
		max_output_tokens: body.max_output_tokens ?? null,
		model: turn.model,
		output: [],
		parallel_tool_calls: true,
		previous_response_id: null,
		reasoning: { effort: null, summary: null },
		store: body.store ?? false,
		temperature: body.temperature ?? 1,
		text: { format: { type: "text" } },
		tool_choice: body.tool_choice ?? "auto",
		tools: body.tools ?? [],
		top_p: 1,
		truncation: "disabled",
		usage: null,
		user: null,
		metadata: {},
	};
}

/** Status, reason and error of the finished response. */
function terminalFields(turn: ResolvedTurn): Record<string, unknown> {
	if (turn.stopReason === "error") {
		const error = openAiError({ status: 500, ...turn.error });
		return {
			status: "failed",
			error: { code: error.code ?? error.type, message: error.message },
			incomplete_details: null,
		};
	}
	const [status, reason] = (turn.rawStopReason ?? STATUSES[turn.stopReason]).split(":");
	return { status, error: null, incomplete_details: reason === undefined ? null : { reason } };
}

/** Items emitted for one block: the item shell, its completed form, and the events in between. */
interface ItemPlan {
	added: Item;
	done: Item;
	events(outputIndex: number, emit: (type: string, fields: Record<string, unknown>) => string): Generator<string>;
}

function planItem(block: ResolvedBlock, ctx: ProtocolContext): ItemPlan {
	switch (block.type) {
		case "thinking": {
			const id = ctx.newId("rs_mock_");
			const part = { type: "summary_text", text: block.text };
			return {
				added: { id, type: "reasoning", summary: [] },
				done: {
					id,
					type: "reasoning",
					summary: [part],
					...(wantsEncryptedReasoning(ctx) ? { encrypted_content: block.signature } : {}),
				},
				*events(output_index, emit) {
					const where = { item_id: id, output_index, summary_index: 0 };
					yield emit("response.reasoning_summary_part.added", {
						...where,
						part: { type: "summary_text", text: "" },
					});
					for (const delta of block.pieces)
						yield emit("response.reasoning_summary_text.delta", { ...where, delta });
					yield emit("response.reasoning_summary_text.done", { ...where, text: block.text });
					yield emit("response.reasoning_summary_part.done", { ...where, part });
				},
			};
		}
		case "redactedThinking": {
			const id = ctx.newId("rs_mock_");
			return {
				added: { id, type: "reasoning", summary: [] },
				done: { id, type: "reasoning", summary: [], encrypted_content: block.data },
				*events() {},
			};
		}
		case "text":
			return messagePlan(ctx.newId("msg_mock_"), "output_text", block.text, block.pieces);
		case "toolCall": {
			const shell = { id: block.itemId, type: "function_call", call_id: block.id, name: block.name };
			return {
				added: { ...shell, arguments: "", status: "in_progress" },
				done: { ...shell, arguments: block.argumentsText, status: "completed" },
				*events(output_index, emit) {
					const where = { item_id: block.itemId, output_index };
					for (const delta of block.pieces)
						yield emit("response.function_call_arguments.delta", { ...where, delta });
					yield emit("response.function_call_arguments.done", {
						...where,
						name: block.name,
						arguments: block.argumentsText,
					});
				},
			};
		}
	}
}

/** An assistant message item with one `output_text` or `refusal` part. */
function messagePlan(id: string, kind: "output_text" | "refusal", text: string, pieces: readonly string[]): ItemPlan {
	const isText = kind === "output_text";
	const emptyPart = isText ? { type: kind, text: "", annotations: [], logprobs: [] } : { type: kind, refusal: "" };
	const part = isText ? { type: kind, text, annotations: [], logprobs: [] } : { type: kind, refusal: text };
	const shell = { id, type: "message", role: "assistant" };
	return {
		added: { ...shell, status: "in_progress", content: [] },
		done: { ...shell, status: "completed", content: [part] },
		*events(output_index, emit) {
			const where = { item_id: id, output_index, content_index: 0 };
			yield emit("response.content_part.added", { ...where, part: emptyPart });
			for (const delta of pieces) {
				yield emit(isText ? "response.output_text.delta" : "response.refusal.delta", {
					...where,
					delta,
					...(isText ? { logprobs: [] } : {}),
				});
			}
			yield emit(
				isText ? "response.output_text.done" : "response.refusal.done",
				isText ? { ...where, text, logprobs: [] } : { ...where, refusal: text },
			);
			yield emit("response.content_part.done", { ...where, part });
		},
	};
}

function planItems(turn: ResolvedTurn, ctx: ProtocolContext): ItemPlan[] {
	const plans = turn.blocks.map((block) => planItem(block, ctx));
	if (turn.refusal !== undefined) {
		plans.push(messagePlan(ctx.newId("msg_mock_"), "refusal", turn.refusal, splitIntoPieces(turn.refusal, 1)));
	}
	return plans;
}

export const openAiResponses: WireProtocol = {
	name: "openai-responses",
	matches: (pathname) => pathname.endsWith("/responses"),
	requestIdHeader: "x-request-id",

	*streamFrames(turn, ctx) {
		let sequence = 0;
		const emit = (type: string, fields: Record<string, unknown>) =>
			sseFrame({ type, sequence_number: sequence++, ...fields }, type);
		const response = responseShell(turn, ctx.newId("resp_mock_"), ctx);
		yield emit("response.created", { response });
		yield emit("response.in_progress", { response });
		const output: Item[] = [];
		for (const [outputIndex, plan] of planItems(turn, ctx).entries()) {
			yield emit("response.output_item.added", { output_index: outputIndex, item: plan.added });
			yield* plan.events(outputIndex, emit);
			yield emit("response.output_item.done", { output_index: outputIndex, item: plan.done });
			output.push(plan.done);
		}
		if (turn.stopReason === "error" && turn.error.asErrorEvent) {
			const error = openAiError({ status: 500, ...turn.error });
			yield emit("error", { code: error.code ?? error.type, message: error.message, param: null });
			return;
		}
		const terminal = terminalFields(turn);
		const finished = { ...response, ...terminal, output, usage: usageOf(turn) };
		if (!turn.omitStop) yield emit(`response.${terminal.status}`, { response: finished });
	},

	jsonReply(turn, ctx): JsonReply {
		if (turn.stopReason === "error") return { status: 500, body: openAiErrorBody({ status: 500, ...turn.error }) };
		const output = planItems(turn, ctx).map((plan) => plan.done);
		const response = responseShell(turn, ctx.newId("resp_mock_"), ctx);
		return { status: 200, body: { ...response, ...terminalFields(turn), output, usage: usageOf(turn) } };
	},

	errorBody: openAiErrorBody,

	overflowBody() {
		return openAiOverflowBody(
			"Your input exceeds the context window of this model. Please adjust your input and try again.",
			"input",
		);
	},

	malformedFrame() {
		return 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":\n\n';
	},
};
