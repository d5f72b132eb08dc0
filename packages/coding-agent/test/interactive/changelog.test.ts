import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InteractiveMode } from "../../src/modes/interactive/interactive-mode.js";
import { createFauxRuntime } from "../support/faux-runtime.js";
import { type HarnessOptions, InteractiveHarness, KeyTerminal } from "./harness.js";

const APP_CHANGELOG = [
	"# Changelog",
	"",
	"## Unreleased",
	"- Work in progress",
	"",
	"## [1.2.0] - 2026-02-01",
	"- Added the rocket launcher",
	"",
	"## 1.1.0",
	"- Faster boots",
	"",
	"## [1.0.0]",
	"- First release",
	"",
].join("\n");

let harness: InteractiveHarness | undefined;
const temporary: string[] = [];

afterEach(async () => {
	await harness?.close();
	harness = undefined;
	vi.unstubAllEnvs();
	for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), "tau-changelog-"));
	temporary.push(dir);
	return dir;
}

/** An installed app package at version 1.2.0 (`$TAU_PACKAGE_DIR`), with or without a changelog. */
function installApp(options: { changelog?: boolean } = {}): void {
	const dir = join(tempDir(), "app");
	mkdirSync(dir);
	writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "@tau/coding-agent", version: "1.2.0" }));
	if (options.changelog !== false) writeFileSync(join(dir, "CHANGELOG.md"), APP_CHANGELOG);
	vi.stubEnv("TAU_PACKAGE_DIR", dir);
}

async function start(options: HarnessOptions = {}): Promise<string> {
	harness = await InteractiveHarness.start(options);
	return harness.screen();
}

function lastChangelogVersion(): string | undefined {
	return harness?.runtime.session.settingsManager.getLastChangelogVersion();
}

describe("What's New on a fresh interactive start", () => {
	it("the first start ever records the version and shows nothing", async () => {
		installApp();
		const screen = await start();
		expect(screen).not.toContain("What's New");
		expect(screen).not.toContain("rocket launcher");
		expect(lastChangelogVersion()).toBe("1.2.0");
	});

	it("shows only the entries newer than the stored version, once, then records the running version", async () => {
		installApp();
		const screen = await start({ settings: { lastChangelogVersion: "1.0.0" } });
		expect(screen).toContain("What's New");
		expect(screen).toContain("Added the rocket launcher");
		expect(screen).toContain("Faster boots");
		expect(screen.indexOf("rocket launcher")).toBeLessThan(screen.indexOf("Faster boots"));
		expect(screen).not.toContain("First release");
		expect(screen).not.toContain("Work in progress");
		expect(lastChangelogVersion()).toBe("1.2.0");
		await harness?.close();

		const again = await start({ settings: { lastChangelogVersion: "1.2.0" } });
		expect(again).not.toContain("What's New");
		expect(again).not.toContain("rocket launcher");
	});

	it("collapseChangelog shows one line instead of the entries", async () => {
		installApp();
		const screen = await start({ settings: { lastChangelogVersion: "1.1.0", collapseChangelog: true } });
		expect(screen).toContain("Updated to v1.2.0.");
		expect(screen).not.toContain("rocket launcher");
		expect(lastChangelogVersion()).toBe("1.2.0");
	});

	it("a stored version that is not x.y.z is replaced without showing anything", async () => {
		installApp();
		const screen = await start({ settings: { lastChangelogVersion: "latest" } });
		expect(screen).not.toContain("What's New");
		expect(lastChangelogVersion()).toBe("1.2.0");
	});

	it("shows Extension Updates of a package extension after What's New, headings prefixed with the package name", async () => {
		installApp();
		const pkg = join(tempDir(), "acme");
		mkdirSync(join(pkg, "extensions"), { recursive: true });
		writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "acme-tools", version: "2.0.0" }));
		writeFileSync(join(pkg, "extensions", "index.ts"), "export default function () {}\n");
		writeFileSync(join(pkg, "CHANGELOG.md"), "## [2.0.0]\n- Acme gained wings\n\n## [1.0.0]\n- Acme was born\n");
		const key = JSON.stringify({ source: pkg, scope: "user" });
		const screen = await start({
			loader: { noExtensions: false },
			settings: {
				packages: [pkg],
				lastChangelogVersion: "1.1.0",
				extensionChangelogVersions: { [key]: "1.0.0" },
			},
		});
		expect(screen).toContain("Extension Updates");
		expect(screen).toContain("acme-tools [2.0.0]");
		expect(screen).toContain("Acme gained wings");
		expect(screen).not.toContain("Acme was born");
		expect(screen.indexOf("What's New")).toBeLessThan(screen.indexOf("Extension Updates"));
		expect(screen.indexOf("rocket launcher")).toBeLessThan(screen.indexOf("Extension Updates"));
		expect(harness?.runtime.session.settingsManager.getExtensionChangelogVersion(key)).toBe("2.0.0");
	});

	it("a session that already has messages shows nothing and records nothing", async () => {
		installApp();
		const root = tempDir();
		const cwd = join(root, "project");
		const agentDir = join(root, "agent");
		mkdirSync(cwd);
		mkdirSync(agentDir);
		const { runtime, faux } = await createFauxRuntime({
			cwd,
			agentDir,
			settings: { lastChangelogVersion: "1.0.0" },
		});
		faux.setResponses([fauxAssistantMessage("an earlier answer")]);
		await runtime.session.prompt("an earlier question");
		const terminal = new KeyTerminal(100, 40);
		// Startup diagnostics are shown right after the changelog step: seeing one means it has run.
		const mode = new InteractiveMode(runtime, {
			tuiMode: "regular",
			terminal,
			stdout: { write: () => {} },
			exit: () => {},
			diagnostics: [{ type: "info", message: "startup marker" }],
		});
		void mode.run();
		let screen = "";
		while (!screen.includes("startup marker")) {
			await new Promise<void>((resolve) => setImmediate(resolve));
			mode.tui.renderNow();
			await terminal.flush();
			screen = [...terminal.getScrollback(), ...terminal.getViewport()].join("\n");
		}
		await mode.quit();
		expect(screen).toContain("an earlier answer");
		expect(screen).not.toContain("What's New");
		expect(screen).not.toContain("rocket launcher");
		expect(runtime.session.settingsManager.getLastChangelogVersion()).toBe("1.0.0");
	});
});

describe("/changelog", () => {
	it("shows every entry of the app's changelog in file order, not only the new ones", async () => {
		installApp();
		await start({ settings: { lastChangelogVersion: "1.2.0" } });
		harness?.submit("/changelog");
		const screen = await harness!.screen();
		expect(screen).toContain("Changelog");
		expect(screen).toContain("Added the rocket launcher");
		expect(screen).toContain("Faster boots");
		expect(screen).toContain("First release");
		expect(screen.indexOf("rocket launcher")).toBeLessThan(screen.indexOf("First release"));
		expect(screen).not.toContain("Work in progress");
	});

	it("in a source checkout reads the changelog at the root of the npm workspace", async () => {
		const repo = tempDir();
		const app = join(repo, "packages", "coding-agent");
		mkdirSync(app, { recursive: true });
		writeFileSync(join(repo, "package.json"), JSON.stringify({ private: true, workspaces: ["packages/*"] }));
		writeFileSync(join(repo, "CHANGELOG.md"), APP_CHANGELOG);
		writeFileSync(join(app, "package.json"), JSON.stringify({ name: "@tau/coding-agent", version: "1.2.0" }));
		vi.stubEnv("TAU_PACKAGE_DIR", app);
		await start();
		harness?.submit("/changelog");
		expect(await harness!.screen()).toContain("Added the rocket launcher");
	});

	it("says so when there is no changelog", async () => {
		installApp({ changelog: false });
		await start();
		harness?.submit("/changelog");
		expect(await harness!.screen()).toContain("No changelog entries found.");
	});
});
