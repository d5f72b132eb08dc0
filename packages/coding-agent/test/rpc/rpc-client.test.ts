import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { RpcClient } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "./harness.js";

/**
 * RpcClient against small scripted children standing in for `tau --mode rpc` (docs/design/cli.md#rpcclient),
 * for process failures the real CLI cannot be made to produce on cue.
 */

const clients: RpcClient[] = [];
afterEach(async () => {
	for (const client of clients.splice(0)) await client.stop();
});

function scriptedClient(source: string): RpcClient {
	const script = join(tempDir("tau-rpc-client-"), "child.mjs");
	writeFileSync(script, source);
	const client = new RpcClient({ cliPath: script });
	clients.push(client);
	return client;
}

describe("RpcClient and a failing child", () => {
	it("a child that dies on its first command rejects the request with its exit and whole stderr", async () => {
		// The child's last words reach its stderr only after it exited: a grandchild sharing the pipe
		// writes them once the child is gone (it sees its own stdin close).
		const client = scriptedClient(`
import { spawn } from "node:child_process";
const lastWords = spawn(process.execPath, ["-e", "process.stdin.resume(); process.stdin.on('end', () => process.stderr.write('last words\\\\n'))"], {
	stdio: ["pipe", "ignore", "inherit"],
});
process.stdin.once("data", () => {
	process.stderr.write("fatal: cannot go on\\n");
	process.exit(3);
});
void lastWords;
`);
		await client.start();
		await expect(client.getState()).rejects.toThrow(
			"Agent process exited (code=3 signal=null). Stderr: fatal: cannot go on\nlast words\n",
		);
		// Later sends fail the same way instead of writing into a dead pipe.
		await expect(client.getState()).rejects.toThrow(/^Agent process exited \(code=3 signal=null\)/);
	});

	it("a child that exits at startup fails start() or the first request with its exit, not a broken pipe", async () => {
		const client = scriptedClient(`process.stderr.write("bad flags\\n"); process.exit(1);`);
		// Whether the exit lands within start()'s grace period or after it depends on the machine.
		const request = client.start().then(() => client.getState());
		await expect(request).rejects.toThrow("Agent process exited (code=1 signal=null). Stderr: bad flags\n");
	});
});
