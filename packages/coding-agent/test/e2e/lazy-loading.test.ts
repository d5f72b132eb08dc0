import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { MockLlmServer } from "@tau/testkit";
import { describe, expect, it } from "vitest";
import { CLI, cliBuilt, mockServer, REPO_ROOT, runCli, type Sandbox, sandbox, writeMockModels } from "./harness.js";

/** esbuild's metafile, written by scripts/bundle-cli.mjs next to the bundle: the sources of each output file. */
const bundleOutputs: Record<string, { inputs: Record<string, unknown> }> = cliBuilt
	? JSON.parse(readFileSync(join(dirname(CLI), "metafile.json"), "utf8")).outputs
	: {};

/** A loaded URL, or for a file of the CLI bundle the file URLs of the source modules it holds. */
function sourceUrls(url: string): string[] {
	const bundleDir = pathToFileURL(dirname(CLI)).href;
	if (!url.startsWith(`${bundleDir}/`)) return [url];
	// Metafile paths are relative to the repository root, where the bundle is built.
	const output = bundleOutputs[`packages/coding-agent/dist/bundle/${url.slice(bundleDir.length + 1)}`];
	return Object.keys(output?.inputs ?? {}).map((source) => pathToFileURL(join(REPO_ROOT, source)).href);
}

/**
 * Runs the built CLI under an ESM resolve hook that logs every resolved module URL (a chunk of the bundle
 * counts as the source modules it was built from), and logs each shipped catalog file read as
 * `catalog:<provider>`.
 */
async function loadedModules(
	box: Sandbox,
	args: string[],
	preload?: string,
	env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; urls: string[] }> {
	const hooks = join(box.home, "log-hooks.mjs");
	const register = join(box.home, "log-register.mjs");
	const log = join(box.home, "modules.log");
	writeFileSync(
		hooks,
		`import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
	const result = await next(specifier, context);
	appendFileSync(${JSON.stringify(log)}, result.url + "\\n");
	return result;
}
`,
	);
	writeFileSync(
		register,
		`import fs from "node:fs";
import { register, syncBuiltinESMExports } from "node:module";
register(${JSON.stringify(pathToFileURL(hooks).href)});
const read = fs.readFileSync;
fs.readFileSync = function (path, ...rest) {
	const match = /catalog\\/providers\\/([^/]+)\\.json$/.exec(String(path instanceof URL ? path.pathname : path));
	if (match) fs.appendFileSync(${JSON.stringify(log)}, "catalog:" + match[1] + "\\n");
	return read.call(this, path, ...rest);
};
syncBuiltinESMExports();
`,
	);
	writeFileSync(log, "");
	// With `preload`, that module is imported ahead of the CLI (to see what it loads on its own).
	const imports = [register, ...(preload ? [preload] : [])].map(
		(path) => `--import ${path.startsWith("file:") ? path : pathToFileURL(path).href}`,
	);
	const result = await runCli(box, args, { env: { ...env, NODE_OPTIONS: imports.join(" ") } });
	const urls = readFileSync(log, "utf8").split("\n").filter(Boolean).flatMap(sourceUrls);
	return { code: result.code, stdout: result.stdout, urls };
}

/**
 * Dependency-free subpath modules of @tau/tui that headless modes use: the terminal sanitiser (for
 * stderr) and `@tau/tui/colors`, behind the `Theme` that `ctx.ui.theme` is in every mode. The TUI
 * itself (components, renderer, editor) stays unloaded.
 */
const LIGHT_TUI_MODULES = [
	"/packages/tui/dist/text/sanitize.js",
	"/packages/tui/dist/colors/",
	"/packages/tui/dist/capabilities/capabilities.js",
];
const loads = (urls: readonly string[], fragment: string) =>
	urls.some((url) => url.includes(fragment) && !LIGHT_TUI_MODULES.some((light) => url.includes(light)));

/** models.json sending the built-in anthropic provider (and its catalog) to `server`. */
function writeAnthropicOverride(box: Sandbox, server: MockLlmServer): void {
	writeFileSync(
		join(box.agentDir, "models.json"),
		JSON.stringify({ providers: { anthropic: { baseUrl: server.baseUrl, apiKey: "test-key" } } }),
	);
}

describe.skipIf(!cliBuilt)("lazy startup (built CLI)", () => {
	it("--version loads no runtime, provider, TUI or extension loader", async () => {
		const box = sandbox();
		const { code, stdout, urls } = await loadedModules(box, ["--version"]);
		expect(code).toBe(0);
		expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
		expect(loads(urls, "coding-agent/dist/main.js")).toBe(true);
		for (const fragment of [
			"/packages/tui/",
			"/packages/ai/",
			"/node_modules/openai/",
			"/node_modules/@anthropic-ai/",
			"/node_modules/jiti/",
			"/coding-agent/dist/startup/",
		]) {
			expect(loads(urls, fragment), fragment).toBe(false);
		}
	});

	it("-p against an Anthropic-protocol server loads its SDK only: no TUI, OpenAI SDK, jiti, MCP client, QuickJS or TypeBox", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "lazy" });
		const { code, stdout, urls } = await loadedModules(box, ["-p", "hi"]);
		expect(code).toBe(0);
		expect(stdout).toBe("lazy\n");
		expect(loads(urls, "/node_modules/@anthropic-ai/sdk/")).toBe(true);
		// The built-in code mode extension registers its tool; its QuickJS sandbox loads on first use.
		expect(loads(urls, "/builtin/codemode/")).toBe(true);
		for (const fragment of [
			"/packages/mcp/",
			"/packages/tui/",
			"/node_modules/openai/",
			"/node_modules/jiti/",
			// Schemas are plain JSON; the validator loads on the first tool call or an invalid models.json.
			"/node_modules/typebox/",
			// The other providers' SDKs, and every shipped catalog file: the model comes from models.json.
			"/node_modules/@google/genai/",
			"/node_modules/@aws-sdk/",
			"/node_modules/@mistralai/",
			"catalog:",
			"/node_modules/quickjs-emscripten",
			"/node_modules/@jitl/",
			// `tau eval` and its TOML parser load only for that subcommand.
			"/coding-agent/dist/eval/",
			"/node_modules/smol-toml/",
			// Sign-in flows load only to sign in or refresh.
			"/auth/oauth/anthropic-oauth",
			"/auth/oauth/loopback-callback",
			"/auth/oauth/browser-authorization",
			"/auth/oauth/openai-chatgpt-oauth",
			// Proxy support loads only when a proxy variable is set.
			"/node_modules/undici/",
			"/node_modules/https-proxy-agent/",
		]) {
			expect(loads(urls, fragment), fragment).toBe(false);
		}
	});

	it("tau eval loads its own modules (control for the -p check above)", async () => {
		const { code, urls } = await loadedModules(sandbox(), ["eval", "--help"]);
		expect(code).toBe(0);
		expect(loads(urls, "/coding-agent/dist/eval/cli/eval-command.js")).toBe(true);
	});

	it("control: with a proxy variable set, -p loads undici's proxy agent (and still no other SDK)", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "proxied" });
		const { code, stdout, urls } = await loadedModules(box, ["-p", "hi"], undefined, {
			HTTP_PROXY: "http://127.0.0.1:9",
			NO_PROXY: "127.0.0.1",
		});
		expect(code).toBe(0);
		expect(stdout).toBe("proxied\n");
		expect(loads(urls, "/node_modules/undici/")).toBe(true);
		expect(loads(urls, "/node_modules/openai/")).toBe(false);
	});

	it("-p with provider/model of a configured provider reads that provider's catalog file only", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeAnthropicOverride(box, server);
		server.enqueue({ text: "from the catalog" });
		const run = await loadedModules(box, ["--model", "anthropic/claude-opus-5", "-p", "hi"]);
		expect(run.code).toBe(0);
		expect(run.stdout).toBe("from the catalog\n");
		expect(run.urls.filter((url) => url.startsWith("catalog:"))).toEqual(["catalog:anthropic"]);
	});

	it("control: a bare model id is resolved against every catalog, so the hook sees them all read", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeAnthropicOverride(box, server);
		server.enqueue({ text: "again" });
		const bare = await loadedModules(box, ["--model", "claude-opus-5", "-p", "hi"]);
		expect(bare.stdout).toBe("again\n");
		expect(bare.urls.filter((url) => url.startsWith("catalog:")).length).toBeGreaterThan(40);
	});

	it("-p with a configured MCP server loads the MCP client but not the TUI", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const fixture = join(REPO_ROOT, "packages/coding-agent/test/builtin/mcp/fixtures/scripted-server.mjs");
		const mcpServers = { scripted: { command: process.execPath, args: [fixture], exposure: "direct" } };
		writeFileSync(join(box.agentDir, "mcp.json"), JSON.stringify({ mcpServers }));
		server.enqueue({ text: "mcp" });
		const { code, stdout, urls } = await loadedModules(box, ["-p", "hi"]);
		expect(code).toBe(0);
		expect(stdout).toBe("mcp\n");
		expect(loads(urls, "/packages/mcp/")).toBe(true);
		expect(loads(urls, "/packages/tui/")).toBe(false);
	});

	it("the built-in tools load without TypeBox (validation loads it only for a schema that needs it)", async () => {
		const box = sandbox();
		const tools = pathToFileURL(join(REPO_ROOT, "packages/coding-agent/dist/core/tools/index.js")).href;
		const { urls } = await loadedModules(box, ["--version"], tools);
		expect(loads(urls, "/core/tools/read.js")).toBe(true);
		expect(loads(urls, "/node_modules/typebox/")).toBe(false);
	});

	it("a built-in tool's call is validated without loading TypeBox: its schema is plain JSON Schema", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		writeFileSync(join(box.project, "file.txt"), "hello\n");
		server.enqueue({
			toolCalls: [{ id: "call_1", name: "read", arguments: { path: "file.txt" } }],
			stopReason: "toolUse",
		});
		server.enqueue({ text: "read it" });
		const { code, stdout, urls } = await loadedModules(box, ["-p", "read file.txt"]);
		expect(code).toBe(0);
		expect(stdout).toBe("read it\n");
		// The call really ran: its result went back to the model.
		expect(JSON.stringify(server.requests.at(-1)?.body)).toContain("hello");
		expect(loads(urls, "/node_modules/typebox/")).toBe(false);
	});

	it("the hook sees what an extension run loads (control: jiti appears once an extension is given)", async () => {
		const box = sandbox();
		const extension = join(box.home, "empty-extension.js");
		writeFileSync(extension, "module.exports = function () {};\n");
		const { code, urls } = await loadedModules(box, ["-e", extension, "--offline-demo", "-p", "hi"]);
		expect(code).toBe(0);
		expect(loads(urls, "/node_modules/jiti/")).toBe(true);
	});

	it("the repository launcher prints the version", () => {
		// A copy of the launcher in a minimal checkout whose build is current, so the test never
		// rebuilds the real tree (other packages may be mid-change) while other tests use dist/.
		const box = sandbox();
		const checkout = join(box.home, "checkout");
		mkdirSync(join(checkout, "scripts"), { recursive: true });
		mkdirSync(join(checkout, "node_modules"), { recursive: true });
		mkdirSync(join(checkout, "packages/coding-agent"), { recursive: true });
		copyFileSync(join(REPO_ROOT, "tau"), join(checkout, "tau"));
		copyFileSync(join(REPO_ROOT, "scripts/install.sh"), join(checkout, "scripts/install.sh"));
		symlinkSync(join(REPO_ROOT, "packages/coding-agent/dist"), join(checkout, "packages/coding-agent/dist"));
		writeFileSync(join(checkout, "package-lock.json"), "{}");
		const past = new Date(Date.now() - 60_000);
		utimesSync(join(checkout, "package-lock.json"), past, past);
		writeFileSync(join(checkout, "node_modules/.package-lock.json"), "{}");
		writeFileSync(join(checkout, "node_modules/.tau-build-stamp"), "");
		const result = spawnSync("bash", [join(checkout, "tau"), "--version"], {
			cwd: checkout,
			env: box.env,
			encoding: "utf8",
		});
		expect(result.stderr).toBe("");
		expect(result.status).toBe(0);
		expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
	});
});
