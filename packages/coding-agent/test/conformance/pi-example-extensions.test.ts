import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import { CONFIG_DIR_NAME, discoverAndLoadExtensions } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { createHarness } from "../agent-session/harness.js";
import { PI_MISSING, PI_PACKAGE_DIR, piInstalled, piModuleUrl, runPiScript } from "../support/pi-reference.js";

/**
 * Pi 1.6's example extensions (from the installed package) in tau and in pi: each registers the same
 * tools, commands, flags, shortcuts and event handlers, and none fails at start or during a turn
 * (docs/pi-compatibility.md).
 */

/** Example extensions pi ships: top-level files and the entry points of example folders. */
function exampleExtensions(): string[] {
	const dir = join(PI_PACKAGE_DIR, "examples", "extensions");
	return readdirSync(dir)
		.flatMap((name) => {
			const path = join(dir, name);
			if (!statSync(path).isDirectory()) return name.endsWith(".ts") ? [path] : [];
			const entry = join(path, "index.ts");
			// gondolin needs a package that is not published with pi; pi's own example config skips it too.
			return name === "gondolin" || !existsSync(entry) ? [] : [entry];
		})
		.sort();
}

interface Registrations {
	errors: string[];
	tools: string[];
	commands: string[];
	flags: string[];
	shortcuts: string[];
	handlers: string[];
}

interface LoadedLike {
	errors: { path: string; error: string }[];
	extensions: {
		tools: Map<string, unknown>;
		commands: Map<string, unknown>;
		flags: Map<string, unknown>;
		shortcuts: Map<string, unknown>;
		handlers: Map<string, unknown>;
	}[];
}

function registrationsOf(result: LoadedLike): Registrations {
	const names = (pick: (extension: LoadedLike["extensions"][number]) => Map<string, unknown>) =>
		result.extensions.flatMap((extension) => [...pick(extension).keys()].map(String)).sort();
	return {
		errors: result.errors.map((error) => error.path),
		tools: names((extension) => extension.tools),
		commands: names((extension) => extension.commands),
		flags: names((extension) => extension.flags),
		shortcuts: names((extension) => extension.shortcuts),
		handlers: names((extension) => extension.handlers),
	};
}

const PI_REGISTRATIONS = `
const pi = await import(input.module);
output = {};
for (const path of input.paths) {
	const result = await pi.discoverAndLoadExtensions([path], input.cwd, input.agentDir);
	const names = (pick) => result.extensions.flatMap((extension) => [...pick(extension).keys()].map(String)).sort();
	output[path] = {
		errors: result.errors.map((error) => error.path),
		tools: names((extension) => extension.tools),
		commands: names((extension) => extension.commands),
		flags: names((extension) => extension.flags),
		shortcuts: names((extension) => extension.shortcuts),
		handlers: names((extension) => extension.handlers),
	};
}
`;

/** Examples that fail without setup pi does not do either, and what they need. */
const NEEDS_SETUP: Record<string, string> = {
	"/with-deps/": "its own npm dependencies, installed in the example folder",
	"/file-trigger.ts": "the file /tmp/agent-trigger.txt it watches",
};

function isolatedDirs(): { cwd: string; agentDir: string } {
	const root = mkdtempSync(join(tmpdir(), "tau-pi-extensions-"));
	const dirs = { cwd: join(root, "project"), agentDir: join(root, "agent") };
	mkdirSync(dirs.cwd, { recursive: true });
	mkdirSync(dirs.agentDir, { recursive: true });
	return dirs;
}

describe.skipIf(!piInstalled)(
	`pi 1.6 example extensions in tau (${piInstalled ? "from the installed pi" : PI_MISSING})`,
	() => {
		it("register the same tools, commands, flags, shortcuts and handlers as in pi", async () => {
			const paths = exampleExtensions();
			expect(paths.length).toBeGreaterThan(60);
			const dirs = isolatedDirs();
			const pi = (await runPiScript(PI_REGISTRATIONS, {
				module: piModuleUrl("pi-coding-agent"),
				paths,
				...dirs,
			})) as Record<string, Registrations>;
			const tau: Record<string, Registrations> = {};
			for (const path of paths) {
				tau[path] = registrationsOf(
					(await discoverAndLoadExtensions([path], dirs.cwd, dirs.agentDir)) as LoadedLike,
				);
			}
			expect(tau).toEqual(pi);
		}, 300_000);

		it("start and run a turn in a session without UI without an extension error", async () => {
			const failures: string[] = [];
			for (const path of exampleExtensions()) {
				// provider-payload logs into the project's config dir, which it expects to exist.
				const cwd = mkdtempSync(join(tmpdir(), "tau-pi-extension-"));
				mkdirSync(join(cwd, CONFIG_DIR_NAME));
				const h = await createHarness({ cwd, loader: { additionalExtensionPaths: [path] } });
				const loadErrors = h.session.resourceLoader.getExtensions().errors;
				for (const error of loadErrors) failures.push(`${path}: load: ${error.error}`);
				await h.session.bindExtensions({
					onError: (error) => failures.push(`${path}: ${error.event}: ${error.error}`),
				});
				h.faux.setResponses([fauxAssistantMessage("ok")]);
				await h.session
					.prompt("hello")
					.catch((error: unknown) => failures.push(`${path}: prompt: ${String(error)}`));
				await h.session.shutdown();
			}
			expect(failures.filter((failure) => !Object.keys(NEEDS_SETUP).some((name) => failure.includes(name)))).toEqual(
				[],
			);
		}, 300_000);
	},
);
