import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Agent, type AgentTool, type StreamFn } from "@tau/agent";
import { createModels, fauxAssistantMessage, fauxProvider, fauxToolCall } from "@tau/ai";
import type { Bench } from "../../../scripts/bench/api.js";

const TURNS = 1_000;

const noop: AgentTool<any> = {
	name: "noop",
	label: "noop",
	description: "Does nothing.",
	parameters: { type: "object", properties: {} },
	execute: async () => ({ content: [], details: {} }),
};

/** Tools shaped like a coding agent's: several, each with a described multi-field schema. */
const richTools: AgentTool<any>[] = Array.from({ length: 8 }, (_, t) => ({
	...noop,
	name: `tool_${t}`,
	description: `Tool ${t}. ${"Explains at length what the tool does and when to use it. ".repeat(8)}`,
	parameters: {
		type: "object",
		properties: Object.fromEntries(
			Array.from({ length: 6 }, (_, p) => [
				`field_${p}`,
				{ type: "string", description: `Field ${p}: ${"what the value means. ".repeat(4)}` },
			]),
		),
		required: ["field_0"],
	},
}));

/**
 * Harness overhead per turn: from the assistant tool-call `message_end` to the next `streamFn` call
 * (tool preflight, execution, result events, turn bookkeeping, request assembly), with a faux provider
 * that answers instantly. Also the heap retained per 1,000 transcript messages.
 */
const bench: Bench = async (ctx) => {
	const { overheads, heapPerThousand } = await runTurns([noop]);
	ctx.record("agent: turn overhead (message_end → next streamFn)", "ms", overheads);
	ctx.record("agent: heap per 1,000 messages", "MB", [heapPerThousand]);
	const rich = await runTurns([noop, ...richTools]);
	ctx.record("agent: turn overhead with 9 schema-rich tools", "ms", rich.overheads);
};

async function runTurns(tools: AgentTool<any>[]): Promise<{ overheads: number[]; heapPerThousand: number }> {
	const models = createModels();
	const faux = fauxProvider({ tokensPerSecond: 0 });
	models.setProvider(faux.provider);
	faux.setResponses([
		...Array.from({ length: TURNS }, (_, index) =>
			fauxAssistantMessage(fauxToolCall("noop", {}, { id: `call-${index}` }), { stopReason: "toolUse" }),
		),
		fauxAssistantMessage("done"),
	]);

	let toolCallEndedAt: number | undefined;
	const overheads: number[] = [];
	const streamSimple = models.streamSimple.bind(models);
	const streamFn: StreamFn = (model, context, options) => {
		if (toolCallEndedAt !== undefined) overheads.push(performance.now() - toolCallEndedAt);
		toolCallEndedAt = undefined;
		return streamSimple(model, context, options);
	};

	const agent = new Agent({ streamFn, initialState: { model: faux.getModel(), tools } });
	agent.subscribe((event) => {
		if (event.type !== "message_end" || event.message.role !== "assistant") return;
		if (event.message.content.some((block) => block.type === "toolCall")) toolCallEndedAt = performance.now();
	});

	const gc = exposeGc();
	gc();
	const heapBefore = process.memoryUsage().heapUsed;
	await agent.prompt("run the no-op tool until the script ends");
	gc();
	const heapAfter = process.memoryUsage().heapUsed;
	if (agent.state.errorMessage) throw new Error(agent.state.errorMessage);

	const messages = agent.state.messages.length;
	return { overheads, heapPerThousand: ((heapAfter - heapBefore) / 1024 / 1024) * (1000 / messages) };
}

/** A full collection before each heap reading keeps the memory figure from measuring garbage. */
function exposeGc(): () => void {
	setFlagsFromString("--expose-gc");
	return runInNewContext("gc") as () => void;
}

export default bench;
