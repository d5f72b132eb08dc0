import { join } from "node:path";
import { DefaultResourceLoader, discoverContextFiles, SettingsManager } from "@tau/coding-agent";
import { describe, expect, it, vi } from "vitest";
import { resourceDirs, write } from "./helpers.js";

// Tests run as root here, so permissions cannot make a file unreadable; fail the read instead.
vi.mock("node:fs", async (importOriginal) => {
	const actual = await importOriginal<typeof import("node:fs")>();
	const readFileSync = ((path: unknown, ...rest: unknown[]) => {
		if (typeof path === "string" && path.includes("UNREADABLE") && /(AGENTS|SYSTEM)\.md$/.test(path)) {
			throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: "EACCES" });
		}
		return (actual.readFileSync as (...args: unknown[]) => unknown)(path, ...rest);
	}) as typeof actual.readFileSync;
	return { ...actual, readFileSync, default: { ...actual, readFileSync } };
});

describe("unreadable resource files", () => {
	it("reports an unreadable AGENTS.md and falls back to the directory's next candidate", () => {
		const { root, agentDir } = resourceDirs();
		const cwd = join(root, "UNREADABLE");
		const agents = write(join(cwd, "AGENTS.md"), "secret");
		const claude = write(join(cwd, "CLAUDE.md"), "claude rules");
		const result = discoverContextFiles({ cwd, agentDir });
		expect(result.diagnostics).toEqual([
			{ type: "warning", message: expect.stringMatching(`^Could not read ${agents}`), path: agents },
		]);
		expect(result.agentsFiles).toEqual([{ path: claude, content: "claude rules" }]);
	});

	it("never fails a reload: unreadable context and SYSTEM files become diagnostics", async () => {
		const { root, agentDir, home } = resourceDirs();
		const cwd = join(root, "UNREADABLE-project");
		const agents = write(join(cwd, "AGENTS.md"), "x");
		const system = write(join(cwd, ".tau", "SYSTEM.md"), "replacement");
		const loader = new DefaultResourceLoader({
			cwd,
			agentDir,
			homeDir: home,
			settingsManager: SettingsManager.inMemory({}, { projectTrusted: true }),
		});
		await loader.reload();
		expect(loader.getAgentsFiles().agentsFiles).toEqual([]);
		expect(loader.getSystemPrompt()).toBeUndefined();
		expect(loader.getSystemPromptSource()).toBeUndefined();
		expect(loader.getDiagnostics()).toEqual([
			expect.objectContaining({ type: "warning", path: agents }),
			expect.objectContaining({
				type: "error",
				path: system,
				message: expect.stringMatching(/Could not read prompt file/),
			}),
		]);
	});
});
