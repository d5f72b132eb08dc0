import {
	type Api,
	type Context,
	createModels,
	type FauxModelDefinition,
	type FauxResponseStep,
	fauxProvider,
	type Model,
	type SimpleStreamOptions,
} from "@tau/ai";
import type { SummaryCompletion } from "../../src/core/compaction/index.js";

export interface RecordedRequest {
	model: Model<Api>;
	context: Context;
	options: SimpleStreamOptions | undefined;
}

/** A faux-provider summarizer whose requests are recorded. */
export function fauxSummarizer(responses: FauxResponseStep[], definition: FauxModelDefinition = { id: "faux-1" }) {
	const models = createModels();
	const faux = fauxProvider({ models: [definition] });
	models.setProvider(faux.provider);
	faux.setResponses(responses);
	const requests: RecordedRequest[] = [];
	const complete: SummaryCompletion = (model, context, options) => {
		requests.push({ model, context, options });
		return models.completeSimple(model, context, options);
	};
	return { model: faux.getModel() as Model<Api>, complete, requests, faux };
}

/** The text of the single user message of a recorded summary request. */
export function promptOf(request: RecordedRequest): string {
	const message = request.context.messages[0]!;
	const content = message.content as { type: string; text: string }[];
	return content.map((block) => block.text).join("");
}

/** A string of `tokens` estimated tokens (4 chars each). */
export function sized(tokens: number, fill = "x"): string {
	return fill.repeat(tokens * 4);
}

/** The section headings a summary prompt asks for, in order (a compaction summary adds "## Critical Context"). */
export const SUMMARY_HEADINGS = [
	"## Goal",
	"## Constraints & Preferences",
	"## Progress",
	"### Done",
	"### In Progress",
	"### Blocked",
	"## Key Decisions",
	"## Next Steps",
];
