import { main, VERSION } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";

async function run(argv: string[]) {
	let stdout = "";
	let stderr = "";
	const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
	return { code, stdout, stderr };
}

describe("main", () => {
	it("prints the package version on stdout", async () => {
		const result = await run(["--version"]);
		expect(result).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
		expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
	});

	it("prints help listing every option group on stdout", async () => {
		const result = await run(["--help"]);
		expect(result.code).toBe(0);
		for (const flag of [
			"--model",
			"--continue",
			"--tools",
			"--extension",
			"--system-prompt",
			"--mode",
			"--offline-demo",
		]) {
			expect(result.stdout).toContain(flag);
		}
		expect(result.stderr).toBe("");
	});

	it("reports flag errors on stderr with exit code 1", async () => {
		const result = await run(["--bogus-short", "-z"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("Error: Unknown option: -z");
		expect(result.stdout).toBe("");
	});

	it("reserves the package subcommands", async () => {
		const result = await run(["install", "npm:x"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('"tau install" is not available');
	});
});
