import { join } from "node:path";
import { parseArgs, type SessionInfo, SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { encodeCwd } from "../../src/core/session/index.js";
import { AmbiguousSessionError, resolveSessionArgument } from "../../src/core/session/session-lookup.js";
import { type ChoiceIo, chooseSession } from "../../src/startup/session-choice.js";
import { selectSession } from "../../src/startup/session-selection.js";
import { tempDir, user } from "../session/helpers.js";

/** Sessions with ids `abc-1`, `abc-2` in /p and `xyz-1`, `xyz-2` in /q, under one agent dir. */
function store() {
	const agentDir = tempDir();
	const make = (cwd: string, id: string) => {
		const manager = SessionManager.create(cwd, join(agentDir, "sessions", encodeCwd(cwd)), { id });
		manager.appendMessage(user(`first message of ${id}`));
		manager.dispose();
		return manager.getSessionFile()!;
	};
	const files = { abc1: make("/p", "abc-1"), abc2: make("/p", "abc-2"), xyz1: make("/q", "xyz-1") };
	make("/q", "xyz-2");
	const where = { cwd: "/p", sessionDir: join(agentDir, "sessions", encodeCwd("/p")), agentDir };
	return { agentDir, files, where };
}

/** A terminal that answers with `answers` in turn and records what was written. */
function scriptedIo(answers: string[]): ChoiceIo & { output: string; prompts: number } {
	const io = {
		output: "",
		prompts: 0,
		write: (text: string) => {
			io.output += text;
		},
		question: async (prompt: string) => {
			io.prompts++;
			io.output += prompt;
			return answers.shift() ?? "";
		},
	};
	return io;
}

describe("--session with an id prefix that matches several sessions", () => {
	it("is never settled by guessing: the error lists every match, here and in other projects", async () => {
		const { where } = store();
		const local = await resolveSessionArgument("abc", where).catch((error: unknown) => error);
		expect(local).toBeInstanceOf(AmbiguousSessionError);
		expect((local as AmbiguousSessionError).matches.map((info) => info.id).sort()).toEqual(["abc-1", "abc-2"]);
		expect((local as Error).message).toContain("Session prefix 'abc' matches 2 sessions");
		expect((local as Error).message).toContain('"first message of abc-2"');
		const global = await resolveSessionArgument("xyz", where).catch((error: unknown) => error);
		expect((global as AmbiguousSessionError).matches.map((info) => info.id).sort()).toEqual(["xyz-1", "xyz-2"]);
		// A unique prefix and an exact id still resolve.
		expect(await resolveSessionArgument("abc-2", where)).toMatchObject({ scope: "local" });
		expect(await resolveSessionArgument("xyz-1", where)).toMatchObject({ scope: "global" });
	});

	it("outside the interactive mode, startup fails with the list", async () => {
		const { agentDir } = store();
		const selection = selectSession(parseArgs(["--session", "abc", "-p", "hi"]), {
			cwd: "/p",
			agentDir,
			sessionDir: undefined,
			hasTerminal: false,
		});
		await expect(selection).rejects.toMatchObject({ exitCode: 1 });
		const error = (await selection.catch((thrown: unknown) => thrown)) as Error;
		expect(error.message).toContain("Session prefix 'abc' matches 2 sessions");
		expect(error.message).toContain("abc-1");
		expect(error.message).toContain("abc-2");
	});

	it("in the interactive mode, asks which one and opens the chosen session", async () => {
		const { agentDir, files } = store();
		const io = scriptedIo(["7", "2"]);
		let listed: readonly SessionInfo[] = [];
		const manager = await selectSession(parseArgs(["--session", "abc"]), {
			cwd: "/p",
			agentDir,
			sessionDir: undefined,
			hasTerminal: true,
			choose: (prefix, matches) => {
				listed = matches;
				return chooseSession(prefix, matches, io);
			},
		});
		expect(io.output).toContain("Several sessions match 'abc':");
		expect(io.output).toContain("Please answer a number from 1 to 2");
		expect(io.prompts).toBe(2);
		expect(manager.getSessionFile()).toBe(listed[1]!.path);
		expect([files.abc1, files.abc2]).toContain(manager.getSessionFile());
		manager.dispose();
	});

	it("an empty answer opens nothing and ends without an error", async () => {
		const { agentDir } = store();
		const io = scriptedIo([""]);
		const selection = selectSession(parseArgs(["--session", "abc"]), {
			cwd: "/p",
			agentDir,
			sessionDir: undefined,
			hasTerminal: true,
			choose: (prefix, matches) => chooseSession(prefix, matches, io),
		});
		await expect(selection).rejects.toMatchObject({ exitCode: 0, message: "" });
		expect(io.output).toContain("No session opened.");
	});
});
