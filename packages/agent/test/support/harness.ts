import { Agent, type AgentEvent, type AgentOptions, type AgentTool, type StreamFn } from "@tau/agent";
import { createModels, type FauxResponseStep, fauxProvider } from "@tau/ai";

/** An Agent on a fresh faux provider with scripted responses, plus everything tests inspect. */
export function scriptedAgent(
	steps: FauxResponseStep[],
	tools: AgentTool<any>[] = [],
	options: AgentOptions = {},
	fauxOptions: Parameters<typeof fauxProvider>[0] = {},
) {
	const models = createModels();
	const faux = fauxProvider({ tokensPerSecond: 0, ...fauxOptions });
	models.setProvider(faux.provider);
	faux.setResponses(steps);
	const streamFn: StreamFn = models.streamSimple.bind(models);
	const agent = new Agent({
		streamFn,
		...options,
		initialState: { model: faux.getModel(), tools, ...options.initialState },
	});
	const events: AgentEvent[] = [];
	agent.subscribe((event) => {
		events.push(event);
	});
	return { agent, faux, models, streamFn, events, model: faux.getModel() };
}

/** A promise with its resolver exposed, for ordering without sleeps. */
export function gate<T = void>() {
	let release!: (value: T) => void;
	const promise = new Promise<T>((resolve) => {
		release = resolve;
	});
	return { promise, release };
}

/** Resolves after pending I/O callbacks and microtasks have run. */
export function tick(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}

export const emptyObjectSchema = { type: "object", properties: {} } as const;

/** A tool with a hand-written schema that records its executions. */
export function recordingTool(
	name: string,
	execute: AgentTool<any>["execute"] = async () => ({ content: [{ type: "text", text: `${name} ok` }], details: {} }),
	extra: Partial<AgentTool<any>> = {},
) {
	const calls: { id: string; args: unknown }[] = [];
	const tool: AgentTool<any> = {
		name,
		label: name,
		description: `${name} tool`,
		parameters: emptyObjectSchema,
		...extra,
		execute: async (id, args, signal, onUpdate) => {
			calls.push({ id, args });
			return execute(id, args, signal, onUpdate);
		},
	};
	return { tool, calls };
}

/** Event types in order, with tool ids or message roles where they disambiguate. */
export function describeEvents(events: readonly AgentEvent[]): string[] {
	return events.map((event) => {
		switch (event.type) {
			case "message_start":
			case "message_end":
				return `${event.type}:${event.message.role}`;
			case "tool_execution_start":
			case "tool_execution_update":
			case "tool_execution_end":
				return `${event.type}:${event.toolCallId}`;
			default:
				return event.type;
		}
	});
}

/** Collapses consecutive `message_update` entries so event orders read at the level of the spec. */
export function collapseUpdates(described: readonly string[]): string[] {
	return described.filter(
		(entry, index) => !(entry === "message_update" && described[index - 1] === "message_update"),
	);
}

/** The course's per-prompt turn budget: a budget stop is separate from task success. */
export function createTurnBudget(maxTurns: number) {
	let turns = 0;
	return {
		finishTurn: async ({ message }: { message: { stopReason: string } }) => {
			turns += 1;
			if (message.stopReason === "error" || message.stopReason === "aborted") return undefined;
			if (turns >= maxTurns) return { action: "end" as const };
			return undefined;
		},
		get turns() {
			return turns;
		},
	};
}
