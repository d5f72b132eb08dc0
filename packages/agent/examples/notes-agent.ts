/**
 * A complete agent run without an API key: the faux provider scripts a search → read → answer flow, and
 * the Agent executes two real tools in between. Run it with `npx jiti packages/agent/examples/notes-agent.ts`
 * after `npx tsc -b`; `test/examples.test.ts` runs it too.
 */
import { Agent, type AgentTool } from "@tau/agent";
import { createModels, fauxAssistantMessage, fauxProvider, fauxToolCall } from "@tau/ai";

const notes = [
	{ id: "loop", text: "The model asks for tools; the runtime executes them and sends results back." },
	{ id: "queues", text: "steer() interrupts between tool batches; followUp() waits until the agent would stop." },
];

const searchNotes: AgentTool<any> = {
	name: "search_notes",
	label: "Search notes",
	description: "Returns the ids of notes containing the query.",
	parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
	async execute(_id, { query }) {
		const ids = notes.filter((note) => note.text.includes(query)).map((note) => note.id);
		return { content: [{ type: "text", text: JSON.stringify(ids) }], details: { ids } };
	},
};

const readNote: AgentTool<any> = {
	name: "read_note",
	label: "Read note",
	description: "Returns the text of one note.",
	parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
	async execute(_id, { id }) {
		const note = notes.find((candidate) => candidate.id === id);
		if (!note) throw new Error(`No note ${id}`);
		return { content: [{ type: "text", text: note.text }], details: { id } };
	},
};

/** Runs the example and returns what a caller would print. */
export async function runNotesAgent(log: (line: string) => void = console.log): Promise<string> {
	const models = createModels();
	const faux = fauxProvider({ tokensPerSecond: 0 });
	models.setProvider(faux.provider);
	faux.setResponses([
		fauxAssistantMessage(fauxToolCall("search_notes", { query: "followUp" }), { stopReason: "toolUse" }),
		fauxAssistantMessage(fauxToolCall("read_note", { id: "queues" }), { stopReason: "toolUse" }),
		fauxAssistantMessage("followUp() waits until the agent would stop (note: queues)."),
	]);

	const agent = new Agent({
		initialState: {
			model: faux.getModel(),
			systemPrompt: "Answer from the notes and cite note ids.",
			tools: [searchNotes, readNote],
		},
		streamFn: models.streamSimple.bind(models),
	});
	agent.subscribe((event) => {
		if (event.type === "tool_execution_start") log(`tool ${event.toolName} ${JSON.stringify(event.args)}`);
		if (event.type === "tool_execution_end") log(`tool ${event.toolName} done (error: ${event.isError})`);
	});

	await agent.prompt("When does followUp() deliver its message?");
	if (agent.state.errorMessage) throw new Error(agent.state.errorMessage);
	const last = agent.state.messages.at(-1);
	const answer =
		last?.role === "assistant" ? last.content.map((block) => (block.type === "text" ? block.text : "")).join("") : "";
	log(answer);
	return answer;
}

if (import.meta.url === `file://${process.argv[1]}`) await runNotesAgent();
