import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { allReports, packageReport } from "../../../scripts/api-report.mjs";

/**
 * The public API of every package is reviewed through its checked-in `api-report.md` (AGENTS.md,
 * "Public API"): a change of an entry point's exports must come with the regenerated report.
 */
describe("API report", () => {
	const reports = allReports();

	it.each(reports.map((report) => [report.name, report] as const))(
		"%s: the checked-in api-report.md matches the sources (run `npm run api-report` after reviewing the change)",
		(_name, report) => {
			expect(readFileSync(report.path, "utf8")).toBe(report.text);
		},
	);

	it("finds the declaration of every exported name", () => {
		expect(reports.flatMap((report) => report.unknown)).toEqual([]);
	});

	it("marks every Pi 1.6 name tau provides as such, as the pi-exports conformance data lists them", () => {
		const data = JSON.parse(
			readFileSync(new URL("./conformance/pi-exports/pi-1.6-exports.json", import.meta.url), "utf8"),
		) as { modules: { tau: string; exports: Record<string, string> }[] };
		const differences = JSON.parse(
			readFileSync(new URL("./conformance/pi-exports/differences.json", import.meta.url), "utf8"),
		) as Record<string, Record<string, string>>;
		const missing: string[] = [];
		for (const module of data.modules) {
			const report = reports.find((candidate) => module.tau.startsWith(candidate.name));
			const section = report?.text
				.split("\n## ")
				.find((part) => part.split("\n")[0]?.split(", ").includes(module.tau));
			for (const name of Object.keys(module.exports)) {
				if (differences[module.tau]?.[name]) continue;
				if (!section?.includes(`\n- \`${name}\` `) || !new RegExp(`\n- \`${name}\` [^\n]*, pi\n`).test(section)) {
					missing.push(`${module.tau}: ${name}`);
				}
			}
		}
		expect(missing).toEqual([]);
	});

	describe("a package's report", () => {
		let dir: string | undefined;
		afterEach(() => {
			if (dir) rmSync(dir, { recursive: true, force: true });
		});

		function fixturePackage(index: string): string {
			dir = mkdtempSync(join(tmpdir(), "tau-api-report-"));
			mkdirSync(join(dir, "src"));
			writeFileSync(
				join(dir, "package.json"),
				JSON.stringify({ name: "@fixture/pkg", exports: { ".": { import: "./dist/index.js" } } }),
			);
			writeFileSync(
				join(dir, "src/values.ts"),
				[
					"/** Adds. */",
					"export function add(a: number, b: number): number {",
					"\treturn a + b;",
					"}",
					"export class Counter {}",
					"export interface Options {",
					"\tcount: number;",
					"}",
					"",
				].join("\n"),
			);
			writeFileSync(join(dir, "src/index.ts"), index);
			return dir;
		}

		it("lists each name with its kind and status, and changes when an export is added", () => {
			const before = packageReport(fixturePackage('export { add } from "./values.js";\n')).text;
			expect(before).toContain("- `add` function, documented\n");
			rmSync(dir as string, { recursive: true, force: true });
			const after = packageReport(
				fixturePackage('export { add, Counter, type Options } from "./values.js";\n'),
			).text;
			expect(after).not.toBe(before);
			expect(after).toContain("- `Counter` class, undocumented\n");
			expect(after).toContain("- `Options` interface, undocumented\n");
		});

		it("marks the names of an export statement documented `@internal` as internal", () => {
			const report = packageReport(
				fixturePackage(
					'export { add } from "./values.js";\n/** @internal tau\'s own tests use it. */\nexport { Counter } from "./values.js";\n',
				),
			);
			expect(report.text).toContain("- `add` function, documented\n");
			expect(report.text).toContain("- `Counter` class, internal\n");
		});
	});
});
