/**
 * `tau mcp` from the shell (built CLI): help exits 0, and `list --json` reports what pi 1.6 reports
 * for the same mcp.json (pi run next to it when the reference is installed).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeMcpJson } from "../builtin/mcp/harness.js";
import { cliBuilt, REPO_ROOT, runCli, type Sandbox, sandbox } from "./harness.js";

const PI_NODE = process.env.TAU_PI_NODE ?? "";
const PI_CLI = process.env.TAU_PI_CLI ?? "";
const piInstalled = PI_NODE !== "" && PI_CLI !== "" && existsSync(PI_NODE) && existsSync(PI_CLI);
const SCRIPTED = join(REPO_ROOT, "packages/coding-agent/test/builtin/mcp/fixtures/scripted-server.mjs");

function runPi(box: Sandbox, args: readonly string[]): Promise<{ code: number | null; stdout: string }> {
	const child = spawn(PI_NODE, [PI_CLI, ...args], {
		cwd: box.project,
		env: { ...box.env, PI_CODING_AGENT_DIR: box.agentDir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" },
		stdio: ["ignore", "pipe", "ignore"],
	});
	let stdout = "";
	child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
	return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout })));
}

describe.skipIf(!cliBuilt)("tau mcp (built CLI)", () => {
	it("--help prints the usage and exits 0, like help and no subcommand", async () => {
		const box = sandbox();
		for (const args of [["mcp", "--help"], ["mcp", "-h"], ["mcp", "help"], ["mcp"], ["mcp", "list", "--help"]]) {
			const result = await runCli(box, args);
			expect(result.code, args.join(" ")).toBe(0);
			expect(result.stdout).toContain("tau mcp list [--json]");
		}
		expect((await runCli(box, ["mcp", "frobnicate"])).code).toBe(1);
	});
});

describe.skipIf(!cliBuilt || !piInstalled)(
	"tau mcp list --json beside pi 1.6 (reference from scripts/pi-reference.mjs)",
	() => {
		it("reports the same servers with the same fields and values", async () => {
			const box = sandbox();
			writeMcpJson(box.agentDir, {
				good: {
					command: process.execPath,
					args: [SCRIPTED],
					toolExposure: { wipe: "direct" },
					exposure: "codemode",
				},
				off: { command: process.execPath, args: [SCRIPTED], enabled: false },
				broken: { command: process.execPath, args: [SCRIPTED, "--stderr", "Fatal: no database", "--exit", "3"] },
				web: { url: "http://127.0.0.1:9/mcp", auth: { provider: "acme" }, exposure: "deferred" },
			});
			const tau = await runCli(box, ["mcp", "list", "--json"]);
			const pi = await runPi(box, ["mcp", "list", "--json"]);
			expect(tau.code).toBe(pi.code);
			type Listed = { servers: Record<string, unknown>[]; errors: string[] };
			const mine = JSON.parse(tau.stdout) as Listed;
			const theirs = JSON.parse(pi.stdout) as Listed;
			expect(mine.errors).toEqual(theirs.errors);
			// Error texts are each program's own words; both carry the server's stderr.
			const comparable = ({ error, ...rest }: Record<string, unknown>) => ({
				...rest,
				hasError: error !== undefined,
			});
			expect(mine.servers.map(comparable)).toEqual(theirs.servers.map(comparable));
			for (const listed of [mine, theirs]) {
				expect(listed.servers.find((server) => server.name === "broken")?.error).toContain("Fatal: no database");
			}
			// Same keys in the same order, so tools reading either output see one shape.
			expect(mine.servers.map((server) => Object.keys(server))).toEqual(
				theirs.servers.map((server) => Object.keys(server)),
			);
		});
	},
);
