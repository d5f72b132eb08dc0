import { AssistantMessageEventStream, fauxAssistantMessage } from "@tau/ai";
import type { Bench } from "../../../scripts/bench/api.js";

/** Pushes `count` deltas before anyone consumes, then drains: the drain must stay linear. */
async function backlog(count: number): Promise<void> {
	const stream = new AssistantMessageEventStream();
	const message = fauxAssistantMessage("");
	stream.push({ type: "start", partial: message });
	for (let i = 0; i < count; i++) stream.push({ type: "text_delta", contentIndex: 0, delta: "x", partial: message });
	stream.push({ type: "done", reason: "stop", message });
	let seen = 0;
	for await (const _ of stream) seen++;
	if (seen !== count + 2) throw new Error(`drained ${seen} of ${count + 2}`);
}

const bench: Bench = async (ctx) => {
	for (const count of [50_000, 100_000, 200_000]) {
		await ctx.time(`event stream backlog drain ${count / 1000}k events`, () => backlog(count), {
			iterations: 5,
			warmup: 1,
		});
	}
};

export default bench;
