import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBuilt, REPO_ROOT } from "../e2e/harness.js";
import { PI_MISSING, PI_PACKAGE_DIR, piInstalled } from "../support/pi-reference.js";

/**
 * Type parity (docs/pi-compatibility.md): pi 1.6's example extensions and SDK examples, copied from
 * the installed package at test time with only `@earendil-works/pi-*` renamed to `@tau/*`, type-check
 * against tau's built declarations; so do the snippets of docs/sdk.md#6-extensions-inline. The examples that may fail
 * are data (pi-examples/typecheck-exceptions.json), each with its reason.
 */

const exceptions = JSON.parse(
	readFileSync(new URL("./pi-examples/typecheck-exceptions.json", import.meta.url), "utf8"),
) as Record<string, string>;
delete exceptions["//"];

const RENAMES: [RegExp, string][] = [
	[/@earendil-works\/pi-coding-agent/g, "@tau/coding-agent"],
	[/@earendil-works\/pi-agent-core/g, "@tau/agent"],
	[/@earendil-works\/pi-tui/g, "@tau/tui"],
	[/@earendil-works\/pi-ai/g, "@tau/ai"],
];

function files(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? (name === "node_modules" ? [] : files(path)) : [path];
	});
}

/** The `ts` code blocks of one `## N.` section of a Markdown file. */
function sectionSnippets(markdown: string, section: string): string[] {
	const start = markdown.indexOf(`\n## ${section}`);
	const end = markdown.indexOf("\n## ", start + 1);
	const body = markdown.slice(start, end === -1 ? undefined : end);
	return [...body.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

const SNIPPET_PRELUDE = `import { createAgentSession, createCodemodeExtension, createMcpExtension, createToolSearchExtension, DefaultResourceLoader, defaultExtensionLoader, SettingsManager } from "@tau/coding-agent";
declare const cwd: string;
declare const agentDir: string;
`;

let workdir: string | undefined;
afterAll(() => {
	if (workdir) rmSync(workdir, { recursive: true, force: true });
});

/** Copies pi's examples and the docs snippets into a temp project and runs tsc over it once. */
function typecheck(): { errorsByFile: Map<string, string[]>; checked: string[] } {
	workdir = mkdtempSync(join(tmpdir(), "tau-pi-examples-"));
	cpSync(join(PI_PACKAGE_DIR, "examples"), join(workdir, "examples"), { recursive: true });
	rmSync(join(workdir, "examples", "tsconfig.json"), { force: true });
	// Pi's own example config leaves gondolin out too: it needs a package that is not published with pi.
	rmSync(join(workdir, "examples", "extensions", "gondolin"), { recursive: true, force: true });
	const sources = files(join(workdir, "examples")).filter((path) => path.endsWith(".ts"));
	for (const path of sources) {
		let text = readFileSync(path, "utf8");
		for (const [pattern, replacement] of RENAMES) text = text.replace(pattern, replacement);
		writeFileSync(path, text);
	}
	const snippets = sectionSnippets(readFileSync(join(REPO_ROOT, "docs/sdk.md"), "utf8"), "6.");
	snippets.forEach((snippet, i) => {
		writeFileSync(join(workdir!, `docs-sdk-6-${i + 1}.ts`), `${SNIPPET_PRELUDE}${snippet}\nexport {};\n`);
	});
	symlinkSync(join(REPO_ROOT, "node_modules"), join(workdir, "node_modules"));
	writeFileSync(join(workdir, "package.json"), JSON.stringify({ type: "module" }));
	writeFileSync(
		join(workdir, "tsconfig.json"),
		JSON.stringify({
			compilerOptions: {
				target: "ES2023",
				lib: ["ES2023", "DOM"],
				module: "NodeNext",
				moduleResolution: "NodeNext",
				strict: true,
				noEmit: true,
				skipLibCheck: true,
				allowImportingTsExtensions: true,
				resolveJsonModule: true,
				types: ["node"],
			},
			include: ["examples/**/*.ts", "*.ts"],
		}),
	);
	// Run in the project so tsc reports paths relative to it.
	const tsc = spawnSync(join(REPO_ROOT, "node_modules/.bin/tsc"), ["-p", ".", "--pretty", "false"], {
		cwd: workdir,
		encoding: "utf8",
	});
	const errorsByFile = new Map<string, string[]>();
	for (const line of tsc.stdout.split("\n")) {
		const match = /^(.+?)\(\d+,\d+\): error /.exec(line);
		if (!match) continue;
		const path = match[1] as string;
		const file = path.startsWith("examples/") ? path.slice("examples/".length) : path;
		errorsByFile.set(file, [...(errorsByFile.get(file) ?? []), line]);
	}
	const checked = [
		...sources.map((path) => relative(join(workdir!, "examples"), path)),
		...snippets.map((_, i) => `docs-sdk-6-${i + 1}.ts`),
	];
	return { errorsByFile, checked };
}

describe.skipIf(!piInstalled || !cliBuilt)(
	`pi 1.6 examples type-check against tau (${!piInstalled ? PI_MISSING : "tau's dist declarations"})`,
	() => {
		const result = { current: undefined as ReturnType<typeof typecheck> | undefined };
		const run = () => {
			result.current ??= typecheck();
			return result.current;
		};

		it("every example and docs/sdk.md#6-extensions-inline snippet type-checks, except the listed ones", () => {
			const { errorsByFile, checked } = run();
			expect(checked.length).toBeGreaterThan(60);
			const unexpected = [...errorsByFile].filter(([file]) => !(file in exceptions));
			expect(unexpected.map(([file, errors]) => `${file}:\n${errors.join("\n")}`)).toEqual([]);
		}, 240_000);

		it("lists no example that type-checks now, and gives each a reason", () => {
			const { errorsByFile, checked } = run();
			const fixed = Object.keys(exceptions).filter((file) => checked.includes(file) && !errorsByFile.has(file));
			expect(fixed).toEqual([]);
			expect(Object.keys(exceptions).filter((file) => !checked.includes(file))).toEqual([]);
			expect(Object.values(exceptions).filter((reason) => reason.trim().length < 10)).toEqual([]);
		}, 240_000);
	},
);
