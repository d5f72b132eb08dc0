import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CompileCache } from "../../src/core/extensions/loader/compile-cache.js";
import { cliBuilt, collectRun, jsonLines, runCli, type Sandbox, sandbox, startCli } from "./harness.js";

/** A command registered by `path`'s extension, as `get_commands` reports it. */
interface ListedCommand {
	name: string;
	sourceInfo: { path: string };
}

/** Runs `--mode rpc` (offline demo model) with one `get_commands` and returns the listed commands. */
async function listCommands(box: Sandbox, args: readonly string[]): Promise<ListedCommand[]> {
	const result = await runCli(box, ["--offline-demo", "--mode", "rpc", "-ne", ...args], {
		stdin: `${JSON.stringify({ id: "1", type: "get_commands" })}\n`,
	});
	expect(result.code, result.stderr).toBe(0);
	const response = jsonLines(result.stdout).find((line) => line.type === "response");
	return (response as { data: { commands: ListedCommand[] } }).data.commands;
}

/** A folder extension as Pi's examples ship them: `index.ts` with a sibling module and no package.json. */
function writeFolderExtension(box: Sandbox, name: string): string {
	const dir = join(box.home, name);
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "helper.ts"), `export const commandName: string = "${name}";\n`);
	writeFileSync(
		join(dir, "index.ts"),
		`import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "@earendil-works/pi-ai";
import { commandName } from "./helper.js";

export default function (pi: ExtensionAPI) {
	const schema = Type.Object({});
	pi.registerCommand(commandName, { description: typeof schema, handler: async () => {} });
}
`,
	);
	return dir;
}

describe.skipIf(!cliBuilt)("loading extensions from folders, through the compile cache (built CLI)", () => {
	it("-e <folder> with an index.ts and no package.json loads it, reported under the folder's path", async () => {
		const box = sandbox();
		const dir = writeFolderExtension(box, "folder-command");
		const commands = await listCommands(box, ["-e", dir]);
		expect(commands).toContainEqual(
			expect.objectContaining({ name: "folder-command", sourceInfo: expect.objectContaining({ path: dir }) }),
		);
		// The same folder given relative to the working directory.
		const relative = await listCommands(box, ["-e", "../folder-command"]);
		expect(relative.map((command) => command.name)).toContain("folder-command");
	});

	it("-e <folder> without an entry point loads each extension file in it", async () => {
		const box = sandbox();
		const dir = join(box.home, "loose");
		mkdirSync(dir);
		for (const name of ["alpha", "beta"]) {
			writeFileSync(
				join(dir, `${name}.ts`),
				`export default function (pi: any) { pi.registerCommand("${name}", { handler: async () => {} }); }\n`,
			);
		}
		const names = (await listCommands(box, ["-e", dir])).map((command) => command.name);
		expect(names).toEqual(expect.arrayContaining(["alpha", "beta"]));
	});

	it("two tau processes starting at once share the compile cache and leave only valid entries", async () => {
		const box = sandbox();
		const dirs = ["first", "second", "third"].map((name) => writeFolderExtension(box, name));
		const args = ["--offline-demo", "--mode", "rpc", "-ne", ...dirs.flatMap((dir) => ["-e", dir])];
		const stdin = `${JSON.stringify({ id: "1", type: "get_commands" })}\n`;
		const runs = await Promise.all([0, 1].map(() => collectRun(startCli(box, args, { stdin }))));
		for (const run of runs) {
			expect(run.code, run.stderr).toBe(0);
			expect(run.stdout).toContain('"name":"third"');
		}
		const root = join(box.agentDir, "cache", "extensions");
		const [version] = readdirSync(root);
		const cache = new CompileCache(root, version!);
		const entries = readdirSync(join(root, version!));
		// Three folders of two modules each; no temp file survives the renames.
		expect(entries).toHaveLength(6);
		for (const entry of entries) {
			expect(entry).toMatch(/^[0-9a-f]{64}\.js$/);
			expect(cache.read(entry.slice(0, -".js".length))).toBeDefined();
		}
	});
});
