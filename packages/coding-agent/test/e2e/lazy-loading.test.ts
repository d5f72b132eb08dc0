import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI, cliBuilt, mockServer, runCli, type Sandbox, sandbox, writeMockModels } from "./harness.js";

/** Runs the built CLI under an ESM resolve hook that logs every resolved module URL. */
async function loadedModules(
	box: Sandbox,
	args: string[],
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
		`import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
	);
	writeFileSync(log, "");
	const result = await runCli(box, args, { env: { NODE_OPTIONS: `--import ${pathToFileURL(register).href}` } });
	return { code: result.code, stdout: result.stdout, urls: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

const loads = (urls: readonly string[], fragment: string) => urls.some((url) => url.includes(fragment));

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
			"/startup/",
		]) {
			expect(loads(urls, fragment), fragment).toBe(false);
		}
	});

	it("-p against an Anthropic-protocol server loads its SDK only: no TUI, no OpenAI SDK, no jiti", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "lazy" });
		const { code, stdout, urls } = await loadedModules(box, ["-p", "hi"]);
		expect(code).toBe(0);
		expect(stdout).toBe("lazy\n");
		expect(loads(urls, "/node_modules/@anthropic-ai/sdk/")).toBe(true);
		for (const fragment of ["/packages/tui/", "/node_modules/openai/", "/node_modules/jiti/"]) {
			expect(loads(urls, fragment), fragment).toBe(false);
		}
	});

	it("the hook sees what an extension run loads (control: jiti appears once an extension is given)", async () => {
		const box = sandbox();
		const extension = join(box.home, "empty-extension.js");
		writeFileSync(extension, "module.exports = function () {};\n");
		const { code, urls } = await loadedModules(box, ["-e", extension, "--offline-demo", "-p", "hi"]);
		expect(code).toBe(0);
		expect(loads(urls, "/node_modules/jiti/")).toBe(true);
	});

	it("the repository launcher prints the version", async () => {
		const box = sandbox();
		const launcher = join(CLI, "../../../../tau");
		expect(existsSync(launcher)).toBe(true);
		const { spawnSync } = await import("node:child_process");
		const result = spawnSync(launcher, ["--version"], {
			cwd: join(CLI, "../../../.."),
			env: box.env,
			encoding: "utf8",
		});
		expect(result.status).toBe(0);
		expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
	});
});
