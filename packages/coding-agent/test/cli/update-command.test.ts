import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { createProvider, fauxProvider, keylessAuth, type Model, type Provider } from "@tau/ai";
import { AuthStorage, ModelRuntime } from "@tau/coding-agent";
import { afterEach, describe, expect, it, vi } from "vitest";
import { detectInstallMethod, runSelfUpdate, type SelfUpdateEnvironment } from "../../src/cli/self-update.js";
import { parseUpdateArgs, runUpdateCommand, type UpdateCommandOptions } from "../../src/cli/update-command.js";
import { PACKAGE_NAME, VERSION } from "../../src/config/app-identity.js";
import { resourceDirs, writeJson } from "../resources/helpers.js";
import { fakeNpmRelease } from "./fake-npm-release.js";

const USAGE =
	"Usage: tau update [source|self|pi] [--self|--extensions|--models|--all] [--extension <source>] [-a|--approve] [-na|--no-approve] [--force]";

afterEach(() => {
	vi.unstubAllEnvs();
});

function capture() {
	const out = { stdout: "", stderr: "" };
	const io = { stdout: (text: string) => (out.stdout += text), stderr: (text: string) => (out.stderr += text) };
	return { out, io };
}

/** A project, an agent dir whose settings point `npmCommand` at a fake npm, and nothing offline. */
function setup(release: { latest?: string; prefix?: string }, settings: Record<string, unknown> = {}) {
	vi.stubEnv("TAU_OFFLINE", "");
	vi.stubEnv("TAU_SELF_UPDATE_COMMAND", "");
	const dirs = resourceDirs();
	const npm = fakeNpmRelease(release);
	writeJson(join(dirs.agentDir, "settings.json"), { npmCommand: npm.npmCommand, ...settings });
	// A package root that is neither under the npm prefix nor in a git checkout.
	const packageDir = join(dirs.root, "opt", "tau");
	mkdirSync(packageDir, { recursive: true });
	const options: UpdateCommandOptions = { cwd: dirs.cwd, agentDir: dirs.agentDir, packageDir };
	return { ...dirs, npm, options };
}

async function run(argv: string[], options: UpdateCommandOptions) {
	const { out, io } = capture();
	const code = await runUpdateCommand(argv, io, options);
	return { code, ...out };
}

const NEWER = "999.0.0";

describe("tau update: targets and option conflicts (docs/design/cli.md#package-commands)", () => {
	it("maps every target form to what it updates", () => {
		for (const argv of [[], ["--self"], ["self"], ["pi"], ["tau"], ["--force"]]) {
			expect(parseUpdateArgs(argv), argv.join(" ")).toMatchObject({ self: true, models: false });
			expect(parseUpdateArgs(argv)).not.toHaveProperty("packages");
		}
		expect(parseUpdateArgs(["--extensions"])).toMatchObject({ self: false, packages: {}, models: false });
		expect(parseUpdateArgs(["npm:foo"])).toMatchObject({ self: false, packages: { source: "npm:foo" } });
		expect(parseUpdateArgs(["--extension", "npm:foo"])).toMatchObject({
			self: false,
			packages: { source: "npm:foo" },
		});
		expect(parseUpdateArgs(["--all"])).toMatchObject({ self: true, packages: {}, models: false });
		expect(parseUpdateArgs(["--self", "--extensions"])).toMatchObject({ self: true, packages: {} });
		expect(parseUpdateArgs(["--models"])).toMatchObject({ self: false, models: true });
		expect(parseUpdateArgs(["--models"])).not.toHaveProperty("packages");
		expect(parseUpdateArgs(["--force", "-na"])).toMatchObject({ force: true, approve: false });
	});

	const conflicts: [string[], string][] = [
		[["--extension", "a", "--extension", "b"], "--extension can be given only once."],
		[["--all", "--self"], "--all cannot be combined with --self."],
		[["--all", "--extensions"], "--all cannot be combined with --extensions."],
		[["--all", "--models"], "--all cannot be combined with --models."],
		[["--all", "--extension", "a"], "--all cannot be combined with --extension."],
		[["--all", "npm:a"], '--all cannot be combined with "npm:a".'],
		[["--models", "--self"], "--models cannot be combined with --self."],
		[["--models", "--extensions"], "--models cannot be combined with --extensions."],
		[["--models", "--extension", "a"], "--models cannot be combined with --extension."],
		[["--models", "npm:a"], '--models cannot be combined with "npm:a".'],
		[["--extension", "a", "--self"], "--extension cannot be combined with --self."],
		[["--extension", "a", "--extensions"], "--extension cannot be combined with --extensions."],
		[["--extension", "a", "npm:b"], '--extension cannot be combined with "npm:b".'],
		[["npm:a", "--self"], '"npm:a" cannot be combined with --self.'],
		[["self", "--extensions"], '"self" cannot be combined with --extensions.'],
		[["npm:a", "npm:b"], "Only one update target can be given (got npm:a, npm:b)."],
		[["--extension"], "--extension needs a package source."],
	];

	it.each(conflicts)("%j is an error with the usage line and runs nothing", async (argv, message) => {
		const { npm, options } = setup({ latest: NEWER });
		const result = await run(argv, options);
		expect(result).toEqual({ code: 1, stdout: "", stderr: `${message}\n${USAGE}\n` });
		expect(npm.calls()).toEqual([]);
	});

	it("an unknown option names itself and the command, then the usage line", async () => {
		const { npm, options } = setup({ latest: NEWER });
		const result = await run(["--frob"], options);
		expect(result).toEqual({ code: 1, stdout: "", stderr: `Unknown option --frob for "update".\n${USAGE}\n` });
		expect(npm.calls()).toEqual([]);
	});

	it("--help prints the usage line", async () => {
		const { options } = setup({ latest: NEWER });
		expect(await run(["--help"], options)).toEqual({ code: 0, stdout: `${USAGE}\n`, stderr: "" });
	});
});

describe("tau update: self-update", () => {
	it("TAU_SELF_UPDATE_COMMAND runs with its placeholders filled when a newer release exists", async () => {
		const { npm, options } = setup({ latest: NEWER });
		vi.stubEnv("TAU_SELF_UPDATE_COMMAND", npm.commandLine("custom", "{packageName}", "{version}", "{installSpec}"));
		const result = await run(["self"], options);
		expect(result).toEqual({
			code: 0,
			stdout: `Updating tau ${VERSION} -> ${NEWER}...\nUpdated tau to ${NEWER}\n`,
			stderr: "",
		});
		expect(npm.calls()).toEqual([
			["view", PACKAGE_NAME, "version", "--json"],
			["custom", PACKAGE_NAME, NEWER, `${PACKAGE_NAME}@${NEWER}`],
		]);
	});

	it("the selfUpdateCommand setting (argv array) replaces the built-in update; the variable wins over it", async () => {
		const { npm, options, agentDir } = setup({ latest: NEWER });
		writeJson(join(agentDir, "settings.json"), {
			npmCommand: npm.npmCommand,
			selfUpdateCommand: [...npm.npmCommand, "from-setting", "{installSpec}"],
		});
		expect((await run([], options)).code).toBe(0);
		expect(npm.calls().at(-1)).toEqual(["from-setting", `${PACKAGE_NAME}@${NEWER}`]);

		vi.stubEnv("TAU_SELF_UPDATE_COMMAND", npm.commandLine("from-env", "{version}"));
		expect((await run(["--self"], options)).code).toBe(0);
		expect(npm.calls().at(-1)).toEqual(["from-env", NEWER]);
	});

	it("a selfUpdateCommand in project settings is ignored (user-only key)", async () => {
		const { npm, options, cwd } = setup({ latest: NEWER });
		writeJson(join(cwd, ".tau", "settings.json"), { selfUpdateCommand: [...npm.npmCommand, "from-project"] });
		const result = await run(["-a"], options);
		expect(result.code).toBe(1);
		expect(npm.calls().flat()).not.toContain("from-project");
	});

	it("when no newer release exists nothing runs; --force runs the command anyway", async () => {
		const { npm, options } = setup({ latest: VERSION });
		vi.stubEnv("TAU_SELF_UPDATE_COMMAND", npm.commandLine("custom", "{installSpec}"));
		expect(await run([], options)).toEqual({ code: 0, stdout: `tau is up to date (${VERSION})\n`, stderr: "" });
		expect(npm.calls()).toEqual([["view", PACKAGE_NAME, "version", "--json"]]);

		const forced = await run(["--force"], options);
		expect(forced.code).toBe(0);
		expect(forced.stdout).toBe(`Reinstalling tau ${VERSION} (--force)...\nReinstalled tau ${VERSION}\n`);
		expect(npm.calls().at(-1)).toEqual(["custom", `${PACKAGE_NAME}@${VERSION}`]);
	});

	it("an npm global install is updated with `<npm> install -g <name>@<version>`", async () => {
		const prefix = join(resourceDirs().root, "npm-global");
		const packageDir = join(prefix, "lib", "node_modules", ...PACKAGE_NAME.split("/"));
		mkdirSync(packageDir, { recursive: true });
		const { npm, options } = setup({ latest: NEWER, prefix });
		const result = await run(["tau"], { ...options, packageDir });
		expect(result).toEqual({
			code: 0,
			stdout: `Updating tau ${VERSION} -> ${NEWER}...\nUpdated tau to ${NEWER}\n`,
			stderr: "",
		});
		expect(npm.calls()).toEqual([
			["prefix", "-g"],
			["view", PACKAGE_NAME, "version", "--json"],
			["install", "-g", `${PACKAGE_NAME}@${NEWER}`],
		]);
	});

	it("a source checkout is left alone: it says to git pull and exits 1 without looking anything up", async () => {
		const { npm, options, root } = setup({ latest: NEWER });
		const checkout = join(root, "tau-src");
		const packageDir = join(checkout, "packages", "coding-agent");
		mkdirSync(join(checkout, ".git"), { recursive: true });
		mkdirSync(packageDir, { recursive: true });
		const result = await run([], { ...options, packageDir });
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr).toContain(`tau runs from a source checkout (${checkout})`);
		expect(result.stderr).toContain('"git pull"');
		expect(result.stderr).toContain("./tau launcher rebuilds on its next start");
		expect(npm.calls()).toEqual([["prefix", "-g"]]);
	});

	it("an unknown install method is an error that suggests selfUpdateCommand", async () => {
		const { npm, options } = setup({ latest: NEWER });
		const result = await run([], options);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/^Error: cannot tell how tau was installed/);
		expect(result.stderr).toContain("selfUpdateCommand");
		expect(npm.calls().filter((call) => call[0] === "install")).toEqual([]);
	});

	it("offline it is an error and spawns nothing", async () => {
		const { npm, options } = setup({ latest: NEWER });
		vi.stubEnv("TAU_SELF_UPDATE_COMMAND", npm.commandLine("custom"));
		vi.stubEnv("TAU_OFFLINE", "1");
		const result = await run([], options);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/^Error: cannot update tau while offline .*no network/);
		expect(npm.calls()).toEqual([]);
	});

	it("a failed command reports its exit status and stderr; a failed lookup is an error", async () => {
		const { npm, options } = setup({ latest: NEWER });
		vi.stubEnv("TAU_SELF_UPDATE_COMMAND", npm.commandLine("fail", "{installSpec}"));
		const failed = await run([], options);
		expect(failed.code).toBe(1);
		expect(failed.stdout).toBe(`Updating tau ${VERSION} -> ${NEWER}...\n`);
		expect(failed.stderr).toMatch(/^Error: updating tau failed: .* exited with 3: disk full\n$/);

		const lookup = setup({});
		vi.stubEnv("TAU_SELF_UPDATE_COMMAND", lookup.npm.commandLine("custom"));
		const unreachable = await run([], lookup.options);
		expect(unreachable.code).toBe(1);
		expect(unreachable.stderr).toMatch(/^Error: could not look up the latest version of .*ENOTFOUND/);
		expect(lookup.npm.calls().map((call) => call[0])).toEqual(["view"]);
	});
});

function fauxModels(provider: string, ids: string[]): Model[] {
	return fauxProvider({ provider, models: ids.map((id) => ({ id })) }).models.map((model) => ({ ...model, provider }));
}

/** A provider with a dynamic catalog whose fetch is faked. */
function dynamicProvider(
	id: string,
	fetch: () => Promise<Model[]>,
	calls: { count: number },
	baseUrl = "https://models.example.test/v1",
): Provider {
	const faux = fauxProvider({ provider: id, models: [{ id: "seed" }] });
	return createProvider({
		id,
		name: `Dynamic ${id}`,
		baseUrl,
		auth: { apiKey: keylessAuth(id) },
		// Like a local server: nothing is known until the catalog is fetched.
		models: [],
		api: faux.provider as never,
		fetchModels: async () => {
			calls.count++;
			return fetch();
		},
	});
}

function staticProvider(id: string): Provider {
	const faux = fauxProvider({ provider: id, models: [{ id: "only" }] });
	return createProvider({
		id,
		auth: { apiKey: keylessAuth(id) },
		models: fauxModels(id, ["only"]),
		api: faux.provider as never,
	});
}

function runtimeOf(providers: Provider[]) {
	return () =>
		new ModelRuntime({ modelsJsonPath: null, credentials: AuthStorage.inMemory(), builtinProviders: providers });
}

describe("tau update --models", () => {
	it("refreshes the dynamic catalogs, leaves static ones alone and reports each provider", async () => {
		const { npm, options } = setup({ latest: NEWER });
		const calls = { count: 0 };
		let runtime: ModelRuntime | undefined;
		const result = await run(["--models"], {
			...options,
			modelRuntime: () => {
				runtime = runtimeOf([
					dynamicProvider("dyn", async () => fauxModels("dyn", ["a", "b"]), calls),
					staticProvider("fixed"),
				])();
				return runtime;
			},
		});
		expect(result).toEqual({
			code: 0,
			stdout: "Refreshed model catalogs:\n  Dynamic dyn (dyn): 2 models\n",
			stderr: "",
		});
		expect(calls.count).toBe(1);
		expect(runtime?.getModels().map((model) => `${model.provider}/${model.id}`)).toEqual(
			expect.arrayContaining(["dyn/a", "dyn/b", "fixed/only"]),
		);
		expect(npm.calls()).toEqual([]);
	});

	it("says there is nothing to refresh when every catalog is static", async () => {
		const { options } = setup({ latest: NEWER });
		const result = await run(["--models"], { ...options, modelRuntime: runtimeOf([staticProvider("fixed")]) });
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/nothing to refresh/);
		expect(result.stdout).not.toMatch(/Refreshed/);
	});

	it("reports a failing provider as a warning with its id, refreshes the others, and exits 1", async () => {
		const { options } = setup({ latest: NEWER });
		const calls = { count: 0 };
		const result = await run(["--models"], {
			...options,
			modelRuntime: runtimeOf([
				dynamicProvider(
					"down",
					async () =>
						Promise.reject(
							new Error("fetch failed", { cause: new Error("connect ECONNREFUSED 203.0.113.7:443") }),
						),
					calls,
				),
				dynamicProvider("up", async () => fauxModels("up", ["x"]), calls),
			]),
		});
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(
			"Warning: could not refresh Dynamic down (down): fetch failed: connect ECONNREFUSED 203.0.113.7:443\n",
		);
		expect(result.stdout).toBe("Refreshed model catalogs:\n  Dynamic up (up): 1 model\n");
		expect(calls.count).toBe(2);
	});

	it("a local server that is not running is skipped with its address, not a failure", async () => {
		const { options } = setup({ latest: NEWER });
		const calls = { count: 0 };
		const refused = () =>
			Promise.reject(new Error("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:11434") }));
		const result = await run(["--models"], {
			...options,
			modelRuntime: runtimeOf([
				dynamicProvider("local", refused, calls, "http://127.0.0.1:11434/v1"),
				dynamicProvider("up", async () => fauxModels("up", ["x"]), calls),
			]),
		});
		expect(result).toEqual({
			code: 0,
			stdout:
				"Skipped (no local server running): Dynamic local (local) at http://127.0.0.1:11434/v1\n" +
				"Refreshed model catalogs:\n  Dynamic up (up): 1 model\n",
			stderr: "",
		});
	});

	it("offline it is skipped with a message and fetches nothing", async () => {
		const { options } = setup({ latest: NEWER });
		vi.stubEnv("TAU_OFFLINE", "1");
		const calls = { count: 0 };
		const result = await run(["--models"], {
			...options,
			modelRuntime: runtimeOf([dynamicProvider("dyn", async () => fauxModels("dyn", ["a"]), calls)]),
		});
		expect(result).toEqual({ code: 0, stdout: "Skipped model catalog refresh (offline mode)\n", stderr: "" });
		expect(calls.count).toBe(0);
	});
});

describe("tau update --all", () => {
	it("updates tau and then the packages", async () => {
		const { npm, options } = setup({ latest: NEWER });
		vi.stubEnv("TAU_SELF_UPDATE_COMMAND", npm.commandLine("custom", "{installSpec}"));
		const result = await run(["--all"], options);
		expect(result).toEqual({
			code: 0,
			stdout: `Updating tau ${VERSION} -> ${NEWER}...\nUpdated tau to ${NEWER}\nPackages are already up to date\n`,
			stderr: "",
		});
		expect(npm.calls().at(-1)).toEqual(["custom", `${PACKAGE_NAME}@${NEWER}`]);
	});

	it("a failed self-update still updates the packages and makes the exit code 1", async () => {
		const { options } = setup({ latest: NEWER });
		const result = await run(["--all"], options);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/^Error: cannot tell how tau was installed/);
		expect(result.stdout).toBe("Packages are already up to date\n");
	});
});

describe("self-update environment", () => {
	function fakeEnvironment(currentVersion: string, latest: string, installed: string[]): SelfUpdateEnvironment {
		return {
			packageName: "@scope/agent",
			currentVersion,
			offline: false,
			latestVersion: async () => latest,
			installMethod: async () => ({ kind: "npm-global" }),
			run: async (argv) => {
				installed.push(argv.join(" "));
			},
			npmInstallGlobal: async (spec) => {
				installed.push(spec);
			},
		};
	}

	it("compares versions as semver: a release beats its prerelease, an older registry version is no update", async () => {
		const installed: string[] = [];
		const { io, out } = capture();
		expect(await runSelfUpdate(fakeEnvironment("1.3.0-beta.1", "1.3.0", installed), io, { force: false })).toBe(0);
		expect(await runSelfUpdate(fakeEnvironment("1.10.0", "1.9.9", installed), io, { force: false })).toBe(0);
		expect(installed).toEqual(["@scope/agent@1.3.0"]);
		expect(out.stdout).toBe(
			"Updating tau 1.3.0-beta.1 -> 1.3.0...\nUpdated tau to 1.3.0\ntau is up to date (1.10.0)\n",
		);
	});

	it("finds an npm global install through a symlinked prefix; a .git above the root is a source checkout", () => {
		const { root } = resourceDirs();
		const realPrefix = join(root, "real-prefix");
		const packageDir = join(realPrefix, "lib", "node_modules", "@scope", "agent");
		mkdirSync(packageDir, { recursive: true });
		symlinkSync(realPrefix, join(root, "prefix-link"));
		expect(detectInstallMethod(packageDir, join(root, "prefix-link"))).toEqual({ kind: "npm-global" });
		expect(detectInstallMethod(packageDir, join(root, "other-prefix"))).toEqual({ kind: "unknown", packageDir });
		mkdirSync(join(realPrefix, ".git"));
		expect(detectInstallMethod(packageDir, undefined)).toEqual({ kind: "source-checkout", checkout: realPrefix });
	});
});
