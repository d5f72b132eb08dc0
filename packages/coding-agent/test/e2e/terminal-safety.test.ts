import { describe, expect, it } from "vitest";
import { cliBuilt, jsonLines, mockServer, runCli, sandbox, writeMockModels } from "./harness.js";
import { hasScript, runCliInTerminal } from "./terminal.js";

const ATTACK = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;pwned-title\x07\x1b[2J";

describe.skipIf(!cliBuilt)("print mode output (built CLI)", () => {
	it("goes to a pipe byte-exact, escape sequences included", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: ["Answer ", ATTACK, " done"] });
		const result = await runCli(box, ["-p", "hi"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(`Answer ${ATTACK} done\n`);
	});

	it("JSON mode keeps the model text exact inside its events", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: ["Answer ", ATTACK, " done"] });
		const result = await runCli(box, ["--mode", "json", "hi"]);
		const end = jsonLines(result.stdout).findLast((line) => line.type === "message_end") as {
			message: { content: { text?: string }[] };
		};
		expect(end.message.content[0]?.text).toBe(`Answer ${ATTACK} done`);
	});

	it.skipIf(!hasScript)(
		"reaches a terminal without its escape sequences (skipped without util-linux script)",
		async () => {
			const box = sandbox();
			const server = await mockServer();
			writeMockModels(box, server);
			server.enqueue({ text: ["Answer ", ATTACK, " done"] });
			const result = await runCliInTerminal(box, ["-p", "hi"]);
			expect(result.status).toBe(0);
			expect(result.output).toContain("Answer  done");
			expect(result.output).not.toContain("\x1b]52");
			expect(result.output).not.toContain("\x1b]0;");
			expect(result.output).not.toContain("\x1b[2J");
		},
	);
});
