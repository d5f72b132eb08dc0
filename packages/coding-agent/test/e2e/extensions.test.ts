import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	cliBuilt,
	collectRun,
	jsonLines,
	mockServer,
	runCli,
	type Sandbox,
	sandbox,
	startCli,
	writeMockModels,
} from "./harness.js";

/** An extension that exercises the CLI's boundaries; `marker` records what it saw. */
function writeExtension(box: Sandbox): { path: string; marker: string } {
	const path = join(box.home, "probe-extension.js");
	const marker = join(box.home, "marker.txt");
	writeFileSync(
		path,
		`const { appendFileSync } = require("node:fs");
const note = (text) => appendFileSync(${JSON.stringify(marker)}, text + "\\n");
module.exports = function (pi) {
	pi.registerFlag("greeting", { type: "string", description: "What to greet with" });
	pi.registerFlag("loud", { type: "boolean" });
	pi.registerCommand("noop", { description: "does nothing", handler: async () => { note("noop ran"); } });
	pi.on("session_start", () => {
		console.log("console output from an extension");
		note("flags " + JSON.stringify({ greeting: pi.getFlag("greeting"), loud: pi.getFlag("loud") }));
		pi.appendEntry("probe-start", { ok: true });
	});
	pi.on("session_shutdown", () => note("shutdown"));
};
`,
	);
	return { path, marker };
}

describe.skipIf(!cliBuilt)("extensions at the CLI boundary (built CLI)", () => {
	it("extension flags are matched after loading; console.log goes to stderr; session_start events follow the header", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "hi there" });
		const extension = writeExtension(box);
		const result = await runCli(box, ["-e", extension.path, "--greeting", "hello", "--loud", "--mode", "json", "Hi"]);
		expect(result.code).toBe(0);
		expect(result.stderr).toContain("console output from an extension");
		expect(result.stdout).not.toContain("console output from an extension");
		const records = jsonLines(result.stdout);
		expect(records[0]!.type).toBe("session");
		const appended = records.findIndex(
			(record) => record.type === "entry_appended" && JSON.stringify(record).includes("probe-start"),
		);
		expect(appended).toBeGreaterThan(0);
		expect(appended).toBeLessThan(records.findIndex((record) => record.type === "agent_start"));
		expect(readFileSync(extension.marker, "utf8")).toContain('flags {"greeting":"hello","loud":true}');
	});

	it("print mode keeps extension console output off stdout", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "answer" });
		const extension = writeExtension(box);
		const result = await runCli(box, ["-e", extension.path, "-p", "Hi"]);
		expect(result).toMatchObject({ code: 0, stdout: "answer\n" });
		expect(result.stderr).toContain("console output from an extension");
	});

	it("an extension's tau and Pi imports are the bundled CLI's own module instances", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "answer" });
		const path = join(box.home, "host-modules.ts");
		const marker = join(box.home, "host-modules.txt");
		writeFileSync(
			path,
			`import { writeFileSync } from "node:fs";
import { SessionManager as PiSessionManager } from "@earendil-works/pi-coding-agent";
import { SessionManager } from "@tau/coding-agent";
export default function (pi) {
	pi.on("session_start", (_event, ctx) => {
		const shared = ctx.sessionManager instanceof SessionManager && PiSessionManager === SessionManager;
		writeFileSync(${JSON.stringify(marker)}, String(shared));
	});
}
`,
		);
		const result = await runCli(box, ["-e", path, "-p", "Hi"]);
		expect(result).toMatchObject({ code: 0, stdout: "answer\n" });
		expect(readFileSync(marker, "utf8")).toBe("true");
	});

	it("unknown long options are reported after extensions loaded", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const extension = writeExtension(box);
		const one = await runCli(box, ["-e", extension.path, "--frob", "-p", "hi"]);
		expect(one.code).toBe(1);
		expect(one.stderr).toContain("Error: Unknown option: --frob");
		const two = await runCli(box, ["--frob", "a", "--bar", "-p", "hi"]);
		expect(two.code).toBe(1);
		expect(two.stderr).toContain("Error: Unknown options: --frob, --bar");
		// Registered flags mixed in are applied, not reported; the extensions layer's own
		// "Unknown option(s)" wording never reaches the user.
		const mixed = await runCli(box, ["-e", extension.path, "--frob", "--greeting", "hey", "--bar", "-p", "hi"]);
		expect(mixed.code).toBe(1);
		expect(mixed.stderr).toContain("Error: Unknown options: --frob, --bar\n");
		expect(mixed.stderr).not.toContain("greeting");
		expect(mixed.stderr).not.toContain("option(s)");
		const missingValue = await runCli(box, ["-e", extension.path, "-p", "hi", "--greeting"]);
		expect(missingValue.stderr).toContain('Error: Extension flag "--greeting" requires a value');
		expect(server.requests).toHaveLength(0);
	});

	it("--help lists extension flags on stdout", async () => {
		const box = sandbox();
		const extension = writeExtension(box);
		const result = await runCli(box, ["-e", extension.path, "--help", "-p"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain("Extension CLI Flags:");
		expect(result.stdout).toMatch(/--greeting <value>\s+What to greet with/);
		expect(result.stdout).toMatch(new RegExp(`--loud\\s+Registered by ${extension.path.replaceAll("/", "\\/")}`));
	});

	it("a failing extension stops startup with the -ne hint", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const broken = join(box.home, "broken.js");
		writeFileSync(broken, "module.exports = function () { throw new Error('boom at load'); };\n");
		const result = await runCli(box, ["-e", broken, "-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(`Error: Failed to load extension "${broken}"`);
		expect(result.stderr).toContain('Hint: Start without extensions using "tau -ne".');
		expect(result.stdout).toBe("");
	});

	it("a prompt consumed by an extension command prints nothing and exits 0", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const extension = writeExtension(box);
		const result = await runCli(box, ["-e", extension.path, "-p", "/noop"]);
		expect(result).toMatchObject({ code: 0, stdout: "" });
		expect(readFileSync(extension.marker, "utf8")).toContain("noop ran");
		expect(server.requests).toHaveLength(0);
	});

	for (const [signal, code] of [
		["SIGTERM", 143],
		["SIGHUP", 129],
	] as const) {
		it(`${signal} during a run exits ${code} after session_shutdown ran`, async () => {
			const box = sandbox();
			const server = await mockServer();
			writeMockModels(box, server);
			server.enqueue({ text: "never finishes", fault: { kind: "stall", afterEvents: 2 } });
			const extension = writeExtension(box);
			const child = startCli(box, ["-e", extension.path, "-p", "Hi"]);
			const done = collectRun(child);
			await server.waitForRequest(0);
			child.kill(signal);
			const result = await done;
			expect(result.code).toBe(code);
			expect(result.stdout).toBe("");
			expect(existsSync(extension.marker) && readFileSync(extension.marker, "utf8")).toContain("shutdown");
		});
	}
});
