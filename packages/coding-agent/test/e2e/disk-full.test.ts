import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, cliBuilt, mockServer, sandbox, writeMockModels } from "./harness.js";

/**
 * A real full disk: a tiny tmpfs mounted in a private user and mount namespace (`unshare -rm`), so no
 * root and nothing outside the test sees it. Skipped where the kernel or container forbids that.
 */
const tinyDisksAllowed = (() => {
	if (process.platform !== "linux") return false;
	const probe = mkdtempSync(join(tmpdir(), "tau-tmpfs-probe-"));
	const result = spawnSync("unshare", ["-rm", "sh", "-c", `mount -t tmpfs -o size=64k tmpfs '${probe}'`], {
		stdio: "ignore",
	});
	return result.status === 0;
})();

/** Runs `script` (sh) in its own namespace with `env`; resolves with what it printed. */
function inNamespace(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
	const child = spawn("unshare", ["-rm", "sh", "-c", script], { env, stdio: ["ignore", "pipe", "pipe"] });
	let output = "";
	child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
	return new Promise((resolve) => child.once("close", (code) => resolve({ code, output })));
}

describe.skipIf(!cliBuilt || !tinyDisksAllowed)(
	"a full disk (tmpfs in a private namespace; skipped where unshare -rm may not mount)",
	() => {
		it("the write tool reports 'Disk full' naming the file and leaves the original byte-identical", async () => {
			const box = sandbox();
			const server = await mockServer();
			writeMockModels(box, server);
			server.enqueue(
				{
					toolCalls: [
						{ name: "write", arguments: { path: "big.txt", content: "n".repeat(200_000) }, chunkSize: 100_000 },
					],
				},
				{ text: "noted" },
			);
			const script = `
set -e
mount -t tmpfs -o size=256k tmpfs "$PROJECT"
head -c 100000 /dev/urandom > "$PROJECT/big.txt"
cp "$PROJECT/big.txt" "$HOME/original.txt"
cd "$PROJECT"
"$NODE" "$CLI" -p "rewrite big.txt" || true
cmp -s "$PROJECT/big.txt" "$HOME/original.txt" && echo ORIGINAL-KEPT
ls -A "$PROJECT" | tr '\\n' ' '; echo
`;
			const result = await inNamespace(script, { ...box.env, PROJECT: box.project, NODE: process.execPath, CLI });
			expect(result.output).toContain("ORIGINAL-KEPT");
			// No temporary file is left behind next to it.
			expect(result.output).toContain("\nbig.txt \n");
			// The model is told (the tool result of the next request).
			const toolResult = JSON.stringify(server.requests.slice(1).map((request) => request.body));
			expect(toolResult).toContain(
				`Disk full: could not write ${join(box.project, "big.txt")}; the file was left unchanged`,
			);
		}, 60_000);

		it("a session append that does not fit stops the turn with 'Disk full' and leaves a valid file", async () => {
			const box = sandbox();
			const server = await mockServer();
			writeMockModels(box, server);
			server.enqueue({ text: [`${"long answer ".repeat(10_000)}`] });
			const sessions = join(box.agentDir, "sessions");
			mkdirSync(sessions, { recursive: true });
			const script = `
mount -t tmpfs -o size=64k tmpfs "$SESSIONS"
cd "$PROJECT"
"$NODE" "$CLI" -p "hello"; echo "EXIT $?"
for file in $(find "$SESSIONS" -name '*.jsonl'); do
	"$NODE" -e 'for (const l of require("fs").readFileSync(process.argv[1], "utf8").split("\\n")) if (l) JSON.parse(l); console.log("VALID")' "$file"
done
`;
			const result = await inNamespace(script, {
				...box.env,
				PROJECT: box.project,
				SESSIONS: sessions,
				NODE: process.execPath,
				CLI,
			});
			expect(result.output).toMatch(
				/Disk full: could not write \S+\.jsonl; the file was left unchanged\. The turn was stopped\./,
			);
			expect(result.output).toContain("EXIT 1");
			expect(result.output).toContain("VALID");
			expect(result.output).not.toContain("SyntaxError");
		}, 60_000);
	},
);
