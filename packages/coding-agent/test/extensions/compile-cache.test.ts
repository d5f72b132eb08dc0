import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadExtensions, VERSION } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { CompileCache } from "../../src/core/extensions/loader/compile-cache.js";

function tempDir(prefix: string): string {
	return mkdtempSync(join(tmpdir(), prefix));
}

/** A TypeScript extension registering `command` (type annotations make it need compiling). */
function writeExtension(dir: string, command: string): string {
	const file = join(dir, "extension.ts");
	writeFileSync(
		file,
		`const name: string = ${JSON.stringify(command)};\nexport default function (pi: { registerCommand(n: string, o: object): void }) {\n\tpi.registerCommand(name, { handler: async () => {} });\n}\n`,
	);
	return file;
}

function entriesOf(agentDir: string): string[] {
	return readdirSync(join(agentDir, "cache", "extensions", VERSION)).map((name) =>
		join(agentDir, "cache", "extensions", VERSION, name),
	);
}

async function commandsOf(file: string, agentDir: string, generation: number): Promise<string[]> {
	const result = await loadExtensions([file], { cwd: agentDir, agentDir, generation });
	expect(result.errors).toEqual([]);
	return [...(result.extensions[0]?.commands.keys() ?? [])];
}

describe("the on-disk compile cache of extension modules", () => {
	it("stores a checksummed entry per compiled source and returns it; anything else is a miss", () => {
		const root = tempDir("tau-compile-cache-");
		const cache = new CompileCache(root, "1.0.0");
		const key = CompileCache.key(["jiti", "{}", "source"]);
		expect(CompileCache.key(["jiti", "{}", "other source"])).not.toBe(key);
		expect(cache.read(key)).toBeUndefined();
		cache.write(key, "module.exports = 1;");
		expect(cache.read(key)).toBe("module.exports = 1;");
		// Written through a temp file renamed into place: nothing else is left behind.
		expect(readdirSync(join(root, "1.0.0"))).toEqual([`${key}.js`]);
		const entry = join(root, "1.0.0", `${key}.js`);
		writeFileSync(entry, readFileSync(entry, "utf8").replace("1;", "2;"));
		expect(cache.read(key)).toBeUndefined();
		writeFileSync(entry, "");
		expect(cache.read(key)).toBeUndefined();
	});

	it("a new tau version starts empty and removes the old version's entries on its first write", () => {
		const root = tempDir("tau-compile-cache-");
		const key = CompileCache.key(["x"]);
		new CompileCache(root, "1.0.0").write(key, "old");
		const next = new CompileCache(root, "1.1.0");
		expect(next.read(key)).toBeUndefined();
		next.write(key, "new");
		expect(readdirSync(root)).toEqual(["1.1.0"]);
		expect(next.read(key)).toBe("new");
	});

	it("a warm load reads the compiled module from the cache instead of compiling the source again", async () => {
		const agentDir = tempDir("tau-compile-agent-");
		const file = writeExtension(tempDir("tau-compile-ext-"), "from-source");
		expect(await commandsOf(file, agentDir, 1)).toEqual(["from-source"]);
		const [entry] = entriesOf(agentDir);
		expect(entry).toBeDefined();
		// Replace the cached code (with a valid checksum): a warm load must run what the cache holds.
		const cache = new CompileCache(join(agentDir, "cache", "extensions"), VERSION);
		const key = entry!.slice(entry!.lastIndexOf("/") + 1, -".js".length);
		cache.write(key, (cache.read(key) ?? "").replace("from-source", "from-cache"));
		expect(await commandsOf(file, agentDir, 2)).toEqual(["from-cache"]);
	});

	it("a corrupt entry is ignored: the source is compiled again and the entry rewritten", async () => {
		const agentDir = tempDir("tau-compile-agent-");
		const file = writeExtension(tempDir("tau-compile-ext-"), "survives");
		await commandsOf(file, agentDir, 1);
		const [entry] = entriesOf(agentDir);
		const good = readFileSync(entry!, "utf8");
		writeFileSync(entry!, good.slice(0, good.length / 2));
		expect(await commandsOf(file, agentDir, 2)).toEqual(["survives"]);
		expect(readFileSync(entry!, "utf8")).toBe(good);
	});

	it("a changed source is a new entry, so an edit takes effect on the next load", async () => {
		const agentDir = tempDir("tau-compile-agent-");
		const dir = tempDir("tau-compile-ext-");
		const file = writeExtension(dir, "first");
		expect(await commandsOf(file, agentDir, 1)).toEqual(["first"]);
		writeExtension(dir, "second");
		expect(await commandsOf(file, agentDir, 2)).toEqual(["second"]);
		expect(entriesOf(agentDir)).toHaveLength(2);
	});

	it("a cache directory that cannot be written never stops a load", async () => {
		const agentDir = tempDir("tau-compile-agent-");
		// A file where the cache directory should be: every write fails.
		mkdirSync(join(agentDir, "cache"), { recursive: true });
		writeFileSync(join(agentDir, "cache", "extensions"), "not a directory");
		const file = writeExtension(tempDir("tau-compile-ext-"), "uncached");
		expect(await commandsOf(file, agentDir, 1)).toEqual(["uncached"]);
	});
});
