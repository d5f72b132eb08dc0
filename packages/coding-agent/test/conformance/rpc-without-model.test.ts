import { describe, expect, it } from "vitest";
import { sandbox } from "../e2e/harness.js";
import { type JsonRecord, oracleMissing, PROGRAMS, type ProgramName, RpcSession } from "./pi-oracle.js";

/**
 * `--mode rpc` with no model configured (docs/rpc.md): the process starts, every command that needs
 * no model is answered as pi 1.6 answers it, and `prompt` fails with an error that names what to
 * configure. Both programs get the same commands one at a time; ids, timestamps and file names are
 * replaced by placeholders in order of appearance before the streams are compared.
 */

const COMMANDS: JsonRecord[] = [
	{ type: "get_state" },
	{ type: "get_commands" },
	{ type: "get_available_models" },
	{ type: "get_session_stats" },
	{ type: "get_messages" },
	{ type: "get_available_thinking_levels" },
	{ type: "set_thinking_level", level: "high" },
	{ type: "cycle_thinking_level" },
	{ type: "cycle_model" },
	{ type: "set_model", provider: "anthropic", modelId: "claude-sonnet-4-5" },
	{ type: "get_last_assistant_text" },
	{ type: "set_session_name", name: "without a model" },
	{ type: "get_entries" },
	{ type: "get_tree" },
	{ type: "get_fork_messages" },
	{ type: "set_auto_compaction", enabled: false },
	{ type: "set_auto_retry", enabled: false },
	{ type: "set_steering_mode", mode: "all" },
	{ type: "set_follow_up_mode", mode: "all" },
	{ type: "clear_queue" },
	{ type: "abort" },
	{ type: "bash", command: "echo hello" },
	{ type: "get_state" },
];

/** Replaces run-specific values (ids, times, file names) with numbered placeholders. */
function normalize(lines: readonly JsonRecord[]): unknown {
	const seen = new Map<string, string>();
	const placeholder = (value: string, kind: string) => {
		if (!seen.has(value)) seen.set(value, `<${kind}${seen.size}>`);
		return seen.get(value);
	};
	return JSON.parse(JSON.stringify(lines), (key, value) => {
		if (typeof value !== "string") return value;
		if (["id", "parentId", "leafId", "sessionId", "targetId"].includes(key)) return placeholder(value, "id");
		if (key === "timestamp") return "<time>";
		if (key === "sessionFile") return placeholder(value, "file");
		return value;
	});
}

async function drive(program: ProgramName): Promise<{ lines: JsonRecord[]; stderr: string; prompt: JsonRecord }> {
	const box = sandbox();
	const rpc = RpcSession.start(program, box, ["--no-extensions"]);
	try {
		for (const command of COMMANDS) await rpc.send(command);
		const lines = [...rpc.lines];
		const prompt = await rpc.send({ type: "prompt", message: "hello" });
		return { lines, stderr: rpc.stderr, prompt };
	} finally {
		expect(await rpc.close()).toBe(0);
	}
}

describe.skipIf(oracleMissing !== undefined)(
	`tau --mode rpc without a model answers as pi 1.6 does (${oracleMissing ?? "pi reference present"})`,
	{ timeout: 180_000 },
	() => {
		it("starts, answers every command that needs no model like pi, and fails a prompt naming what to configure", async () => {
			const [tau, pi] = await Promise.all(PROGRAMS.map(drive));
			expect(tau!.lines.filter((line) => line.type === "response" && line.success)).toHaveLength(
				COMMANDS.length - 1,
			);
			expect(normalize(tau!.lines)).toEqual(normalize(pi!.lines));
			// Pi's stand-in model in get_state, so clients can read `state.model.id` without a check.
			expect(tau!.lines[0]).toMatchObject({ data: { model: { id: "unknown", provider: "unknown" } } });
			// Both refuse the prompt; tau's text names the keys, models.json and set_model (docs/pi-compatibility.md).
			expect(pi!.prompt).toMatchObject({ type: "response", command: "prompt", success: false });
			expect(tau!.prompt).toMatchObject({ type: "response", command: "prompt", success: false });
			expect(tau!.prompt.error).toMatch(/ANTHROPIC_API_KEY.*models\.json.*set_model/s);
			expect(tau!.stderr).toContain("No models available.");
		});
	},
);
