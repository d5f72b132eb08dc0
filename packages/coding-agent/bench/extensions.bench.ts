import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage } from "@tau/agent";
import { type ExtensionAPI, ExtensionRunner, loadExtensions } from "@tau/coding-agent";
import type { Bench } from "../../../scripts/bench/api.js";
import { loadExtensionItems } from "../src/core/extensions/index.js";

const cwd = mkdtempSync(join(tmpdir(), "tau-ext-bench-"));

async function runnerWith(count: number, register: (pi: ExtensionAPI) => void): Promise<ExtensionRunner> {
	const result = await loadExtensionItems({
		cwd,
		items: Array.from({ length: count }, (_, index) => ({
			path: `ext${index}`,
			sourceInfo: {
				path: `ext${index}`,
				source: "inline",
				scope: "temporary" as const,
				origin: "top-level" as const,
			},
			hidden: false,
			replaceable: false,
			factory: register as never,
		})),
	});
	return new ExtensionRunner({ extensions: result.extensions, runtime: result.runtime, cwd });
}

/** Dispatch overhead per event with 10 extensions, and the cost of loading extension files with jiti. */
const bench: Bench = async (ctx) => {
	const gates = await runnerWith(10, (pi) => pi.on("tool_call", () => undefined));
	await ctx.time(
		"tool_call gate, 10 extensions x 1000 calls",
		async () => {
			for (let i = 0; i < 1000; i++) {
				await gates.emitToolCall({
					type: "tool_call",
					toolCallId: `c${i}`,
					toolName: "bash",
					input: { command: "ls" },
				});
			}
		},
		{ iterations: 20 },
	);

	const observers = await runnerWith(10, (pi) => pi.on("message_update", () => {}));
	await ctx.time(
		"message_update notification, 10 extensions x 1000 deltas",
		async () => {
			for (let i = 0; i < 1000; i++)
				await observers.emit({ type: "message_update", message: {}, assistantMessageEvent: {} });
		},
		{ iterations: 20 },
	);

	const contextEditors = await runnerWith(3, (pi) => pi.on("context", () => undefined));
	const messages: AgentMessage[] = Array.from({ length: 500 }, (_, index) => ({
		role: "user",
		content: `message ${index} `.repeat(50),
		timestamp: index,
	}));
	await ctx.time("context hook, 500 messages (deep copy)", () => contextEditors.emitContext(messages), {
		iterations: 50,
	});

	const dir = mkdtempSync(join(tmpdir(), "tau-ext-bench-files-"));
	const files = Array.from({ length: 10 }, (_, index) => {
		const file = join(dir, `ext${index}.ts`);
		writeFileSync(
			file,
			`import { Type } from "typebox";\nimport type { ExtensionAPI } from "@earendil-works/pi-coding-agent";\nexport default function (pi: ExtensionAPI) { pi.registerTool({ name: "t${index}", label: "t", description: "t", parameters: Type.Object({}), execute: async () => ({ content: [], details: undefined }) }); }\n`,
		);
		return file;
	});
	let generation = 0;
	await ctx.time(
		"load 10 .ts extension files (fresh import, warm compile cache)",
		() => loadExtensions(files, { cwd: dir, agentDir: dir, generation: ++generation }),
		{
			iterations: 10,
		},
	);
};

export default bench;
