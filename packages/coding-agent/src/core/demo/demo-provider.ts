import {
	type FauxProviderHandle,
	type FauxResponseFactory,
	fauxAssistantMessage,
	fauxProvider,
	fauxToolCall,
	getCurrentTools,
	type Message,
	type Provider,
	type TranscriptContext,
} from "@tau/ai";
import { countNoun } from "../text/count-noun.js";

/** Id of the offline demo provider that `demoProvider` registers. */
export const DEMO_PROVIDER_ID = "demo";
/** Id of the offline demo model that `demoProvider` registers; it answers without a network or an API key. */
export const DEMO_MODEL_ID = "offline";

/** README-like names, most preferred first: a `README*` beats an `index.*` in the same listing. */
const README_LIKE = [
	/^readme(\.[a-z0-9]+)?$/i,
	/^read_me(\.[a-z0-9]+)?$/i,
	/^about(\.[a-z0-9]+)?$/i,
	/^index(\.[a-z0-9]+)?$/i,
];

/** The listed name the demo reads: the first README-like pattern that matches any entry. */
function readmeLike(names: readonly string[]): string | undefined {
	for (const pattern of README_LIKE) {
		const found = names.find((name) => pattern.test(name));
		if (found) return found;
	}
	return undefined;
}

function textOf(message: Message): string {
	if (typeof message.content === "string") return message.content;
	return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/** The tool results of the current user turn (everything after the last user message). */
function currentTurnResults(context: TranscriptContext): Extract<Message, { role: "toolResult" }>[] {
	const lastUser = context.messages.findLastIndex((message) => message.role === "user");
	return context.messages
		.slice(lastUser + 1)
		.filter((message): message is Extract<Message, { role: "toolResult" }> => message.role === "toolResult");
}

/** Names from `ls` output: one entry per line, directories end with `/`, notices are skipped. */
function listedNames(output: string): string[] {
	return output
		.split("\n")
		.map((line) => line.trim())
		.filter((line) => line !== "" && !line.startsWith("[") && !line.startsWith("("));
}

/** The script: `ls` the cwd, `read` a README-like file if listed, then a summary naming what was found. */
const demoReply: FauxResponseFactory = (context) => {
	const results = currentTurnResults(context);
	const declared = new Set(getCurrentTools(context.messages).map((tool) => tool.name));
	const listing = results.find((result) => result.toolName === "ls" || result.toolName === "bash");
	if (!listing) {
		// `ls` when it is active; the default tool set has only `bash` for listing.
		if (declared.has("ls") || !declared.has("bash")) {
			return fauxAssistantMessage(fauxToolCall("ls", { path: "." }), { stopReason: "toolUse" });
		}
		return fauxAssistantMessage(fauxToolCall("bash", { command: "ls -1Ap" }), { stopReason: "toolUse" });
	}
	const names = listing.isError ? [] : listedNames(textOf(listing));
	const readme = readmeLike(names);
	const read = results.find((result) => result.toolName === "read");
	if (readme && !read && (declared.has("read") || declared.size === 0)) {
		return fauxAssistantMessage(fauxToolCall("read", { path: readme }), { stopReason: "toolUse" });
	}
	const parts = ["I am the offline demo model (demo/offline): no network and no API key are involved."];
	parts.push(
		names.length > 0
			? `The current directory has ${countNoun(names.length, "entry", "entries")}: ${names.slice(0, 10).join(", ")}${names.length > 10 ? ", …" : ""}.`
			: "The current directory looks empty.",
	);
	if (readme && read) {
		const firstLine = textOf(read)
			.split("\n")
			.map((line) => line.replace(/^\s*\d+\s*[│|:]\s?/, "").trim())
			.find((line) => line !== "");
		parts.push(
			read.isError
				? `I could not read ${readme}.`
				: `${readme} starts with: ${firstLine ? `"${firstLine.slice(0, 120)}"` : "(empty)"}.`,
		);
	}
	return fauxAssistantMessage(parts.join(" "));
};

/**
 * The built-in offline demo provider `demo` with its single model `demo/offline`: no key, no network;
 * each user prompt is answered by the same small script through the real tool loop.
 */
export function demoProvider(): Provider {
	let handle: FauxProviderHandle | undefined;
	const replenishing: FauxResponseFactory = (context, options, state, model) => {
		handle?.appendResponses([replenishing]);
		return demoReply(context, options, state, model);
	};
	handle = fauxProvider({
		provider: DEMO_PROVIDER_ID,
		api: "demo",
		models: [{ id: DEMO_MODEL_ID, name: "Offline demo", input: ["text"], contextWindow: 128000, maxTokens: 4096 }],
	});
	handle.setResponses([replenishing]);
	return handle.provider;
}
