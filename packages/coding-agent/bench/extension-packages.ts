// Ten extension packages shaped like the ones users install: a package.json with a `pi` manifest,
// TypeScript sources split over several modules, and a real npm dependency in the package's own
// node_modules (linked from this repository's node_modules, so nothing is downloaded).
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const REPO_NODE_MODULES = resolve(import.meta.dirname, "../../../node_modules");

/** A dependency and a line of code that uses it when the extension loads. */
interface Dependency {
	name: string;
	use: string;
}

const DEPENDENCIES: readonly Dependency[] = [
	{
		name: "marked",
		use: `import { marked } from "marked";\nexport const render = (text: string) => marked.parse(text);`,
	},
	{
		name: "diff",
		use: `import { createPatch } from "diff";\nexport const render = (text: string) => createPatch("a", "", text);`,
	},
	{ name: "zod", use: `import { z } from "zod";\nexport const render = (text: string) => z.string().parse(text);` },
	{
		name: "glob",
		use: `import { globSync } from "glob";\nexport const render = (text: string) => globSync(text).join(",");`,
	},
	{
		name: "ajv",
		use: `import Ajv from "ajv";\nconst ajv = new Ajv();\nexport const render = (text: string) => String(ajv.validate({ type: "string" }, text));`,
	},
	{
		name: "jszip",
		use: `import JSZip from "jszip";\nexport const render = (text: string) => { const zip = new JSZip(); zip.file("a", text); return "zip"; };`,
	},
	{
		name: "minimatch",
		use: `import { minimatch } from "minimatch";\nexport const render = (text: string) => String(minimatch(text, "*.ts"));`,
	},
	{
		name: "picomatch",
		use: `import picomatch from "picomatch";\nexport const render = (text: string) => String(picomatch("*.ts")(text));`,
	},
	{
		name: "pako",
		use: `import pako from "pako";\nexport const render = (text: string) => String(pako.deflate(text).length);`,
	},
	{
		name: "nanoid",
		use: `import { nanoid } from "nanoid";\nexport const render = (text: string) => text + nanoid(4);`,
	},
];

/** A module of plain TypeScript (types, a class, functions) so each package has real code to compile. */
function helperModule(pkg: number, module: number): string {
	const lines = [
		`export interface Record${module} { id: string; count: number; tags: readonly string[]; note?: string }`,
		`export enum Kind${module} { First = "first", Second = "second", Third = "third" }`,
		`export class Store${module}<T extends { id: string }> {`,
		`\tprivate readonly items = new Map<string, T>();`,
		`\tconstructor(private readonly label: string = "store-${pkg}-${module}") {}`,
		`\tput(item: T): this { this.items.set(item.id, item); return this; }`,
		`\tget(id: string): T | undefined { return this.items.get(id); }`,
		`\tget size(): number { return this.items.size; }`,
		`\tdescribe(): string { return \`\${this.label}: \${this.size} items\`; }`,
		`}`,
	];
	for (let fn = 0; fn < 12; fn++) {
		lines.push(
			`export function step${module}_${fn}(input: Record${module}, kind: Kind${module} = Kind${module}.First): Record${module} {`,
			`\tconst tags = [...input.tags, kind, "${pkg}-${module}-${fn}"].filter((tag, index, all) => all.indexOf(tag) === index);`,
			`\tconst note = input.note ?? \`step ${fn} of \${input.id}\`;`,
			`\treturn { ...input, count: input.count + ${fn}, tags, note: note.length > 80 ? note.slice(0, 80) : note };`,
			`}`,
		);
	}
	return `${lines.join("\n")}\n`;
}

function indexModule(pkg: number): string {
	return `import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import { render } from "./dependency.js";
import { Kind0, Store0, step0_0 } from "./module0.js";
import { Store1, step1_3 } from "./module1.js";
import { Store2 } from "./module2.js";
import { Store3 } from "./module3.js";

export default function (pi: ExtensionAPI) {
	const stores = [new Store0(), new Store1(), new Store2(), new Store3()];
	pi.registerTool({
		name: "bench_tool_${pkg}",
		label: "Bench tool ${pkg}",
		description: "Renders text through package ${pkg}'s dependency",
		parameters: Type.Object({ text: Type.String({ description: "Text to render" }) }),
		async execute(_toolCallId, params) {
			const record = step1_3(step0_0({ id: params.text, count: 0, tags: [] }, Kind0.Second));
			return { content: [{ type: "text", text: String(render(params.text)) }], details: { record } };
		},
	});
	pi.registerCommand("bench-${pkg}", {
		description: "Describes package ${pkg}",
		handler: async (_args, ctx) => ctx.ui.notify(stores.map((store) => store.describe()).join("; "), "info"),
	});
	pi.on("session_start", () => {
		stores[0]?.put({ id: "start", count: 1, tags: [] });
	});
}
`;
}

/** Writes `count` packages under `root` and returns their directories. */
export function writeExtensionPackages(root: string, count = 10): string[] {
	const dirs: string[] = [];
	for (let pkg = 0; pkg < count; pkg++) {
		const dependency = DEPENDENCIES[pkg % DEPENDENCIES.length]!;
		const dir = join(root, `bench-extension-${pkg}`);
		mkdirSync(join(dir, "src"), { recursive: true });
		mkdirSync(join(dir, "node_modules"), { recursive: true });
		writeFileSync(
			join(dir, "package.json"),
			JSON.stringify({
				name: `bench-extension-${pkg}`,
				version: "1.0.0",
				type: "module",
				pi: { extensions: ["./src/index.ts"] },
				dependencies: { [dependency.name]: "*" },
			}),
		);
		const target = join(REPO_NODE_MODULES, dependency.name);
		if (!existsSync(target)) throw new Error(`extension bench: dependency ${dependency.name} is not installed`);
		symlinkSync(target, join(dir, "node_modules", dependency.name), "dir");
		writeFileSync(join(dir, "src", "index.ts"), indexModule(pkg));
		writeFileSync(join(dir, "src", "dependency.ts"), `${dependency.use}\n`);
		for (let module = 0; module < 4; module++)
			writeFileSync(join(dir, "src", `module${module}.ts`), helperModule(pkg, module));
		dirs.push(dir);
	}
	return dirs;
}
