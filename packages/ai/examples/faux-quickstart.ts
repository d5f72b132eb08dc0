/**
 * @tau/ai quickstart, offline: a scripted (faux) model asks for a tool, we validate the call, answer it,
 * and the model replies. Swap `fauxProvider()` for `builtinModels()` and a real model to go online.
 *
 * Run: npx tsc -b packages/ai && npx jiti packages/ai/examples/faux-quickstart.ts
 */
import { pathToFileURL } from "node:url";
import {
	type AssistantMessage,
	type Context,
	createModels,
	fauxAssistantMessage,
	fauxProvider,
	fauxToolCall,
	type Tool,
	validateToolCall,
} from "@tau/ai";

const weatherTool: Tool = {
	name: "get_weather",
	description: "Current weather for a city",
	parameters: {
		type: "object",
		properties: { city: { type: "string" }, days: { type: "integer" } },
		required: ["city"],
	},
};

export async function runQuickstart(log: (line: string) => void = console.log): Promise<AssistantMessage> {
	const models = createModels();
	const faux = fauxProvider();
	models.setProvider(faux.provider);
	faux.setResponses([
		fauxAssistantMessage(fauxToolCall("get_weather", { city: "Lisbon", days: "2" }), { stopReason: "toolUse" }),
		(context) => {
			const result = context.messages.findLast((message) => message.role === "toolResult");
			const text =
				result?.role === "toolResult" && result.content[0]?.type === "text" ? result.content[0].text : "nothing";
			return fauxAssistantMessage(`The forecast says: ${text}`);
		},
	]);

	const context: Context = {
		systemPrompt: "You are a concise weather assistant.",
		tools: [weatherTool],
		messages: [{ role: "user", content: "Weather in Lisbon?", timestamp: Date.now() }],
	};

	for (;;) {
		const stream = models.streamSimple(faux.getModel(), context);
		for await (const event of stream) {
			if (event.type === "text_delta") log(`text: ${event.delta}`);
			if (event.type === "toolcall_end")
				log(`tool call: ${event.toolCall.name} ${JSON.stringify(event.toolCall.arguments)}`);
		}
		const reply = await stream.result();
		context.messages.push(reply);
		// Failures are values, never exceptions: always check the stop reason.
		if (reply.stopReason === "error" || reply.stopReason === "aborted") throw new Error(reply.errorMessage);
		if (reply.stopReason !== "toolUse") return reply;
		for (const block of reply.content) {
			if (block.type !== "toolCall") continue;
			const args = validateToolCall([weatherTool], block) as { city: string; days?: number };
			context.messages.push({
				role: "toolResult",
				toolCallId: block.id,
				toolName: block.name,
				content: [{ type: "text", text: `sunny in ${args.city} for ${args.days ?? 1} days` }],
				isError: false,
				timestamp: Date.now(),
			});
		}
	}
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	const reply = await runQuickstart();
	console.log(`final: ${reply.content.map((block) => (block.type === "text" ? block.text : "")).join("")}`);
}
