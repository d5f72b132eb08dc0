import { type Dirent, existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { type IgnoreFile, isIgnored, loadDirectoryIgnores } from "../../tools/search/ignore-rules.js";

const IGNORE_FILE_NAMES = [".gitignore", ".ignore", ".fdignore"];

/** One visible entry of a directory, with symlinks resolved to what they point at. */
export interface ScannedEntry {
	name: string;
	path: string;
	isFile: boolean;
	isDirectory: boolean;
}

/**
 * A directory walk shared by every resource kind: dot entries and `node_modules` are skipped,
 * symlinks are followed (broken ones skipped), and `.gitignore`/`.ignore`/`.fdignore` rules of
 * the root and every visited subdirectory apply.
 */
export class DirectoryScan {
	private readonly visited = new Set<string>();

	/** Visible entries of `dir`, sorted by name; `ignores` are the rules inherited from parents. */
	entries(dir: string, inherited: readonly IgnoreFile[] = []): { entries: ScannedEntry[]; ignores: IgnoreFile[] } {
		const ignores = [...inherited, ...loadDirectoryIgnores(dir, IGNORE_FILE_NAMES)];
		let dirents: Dirent[];
		try {
			dirents = readdirSync(dir, { withFileTypes: true });
		} catch {
			return { entries: [], ignores };
		}
		const entries: ScannedEntry[] = [];
		for (const dirent of dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
			if (dirent.name.startsWith(".") || dirent.name === "node_modules") continue;
			const path = join(dir, dirent.name);
			let isFile = dirent.isFile();
			let isDirectory = dirent.isDirectory();
			if (dirent.isSymbolicLink()) {
				try {
					const stats = statSync(path);
					isFile = stats.isFile();
					isDirectory = stats.isDirectory();
				} catch {
					continue;
				}
			}
			if (isIgnored(ignores, path, isDirectory)) continue;
			entries.push({ name: dirent.name, path, isFile, isDirectory });
		}
		return { entries, ignores };
	}

	/** Guards recursion against symlink loops: true the first time a real directory is seen. */
	enter(dir: string): boolean {
		let key: string;
		try {
			key = realpathSync.native(dir);
		} catch {
			key = dir;
		}
		if (this.visited.has(key)) return false;
		this.visited.add(key);
		return true;
	}
}

/** Files with `extension` in `dir` (and, when `recursive`, its subdirectories). */
export function collectFilesByExtension(dir: string, extension: string, recursive: boolean): string[] {
	const scan = new DirectoryScan();
	const files: string[] = [];
	const walk = (current: string, inherited: readonly IgnoreFile[]) => {
		if (!scan.enter(current)) return;
		const { entries, ignores } = scan.entries(current, inherited);
		for (const entry of entries) {
			if (entry.isFile && entry.name.endsWith(extension)) files.push(entry.path);
			else if (recursive && entry.isDirectory) walk(entry.path, ignores);
		}
	};
	walk(dir, []);
	return files;
}

/**
 * Skill candidates of a directory. A directory holding `SKILL.md` is one skill (no descent).
 * In "pi" mode loose `*.md` files of the root are candidates; in "agents" mode (`.agents/skills`)
 * root-level loose files are ignored and loose files of subdirectories are candidates instead.
 */
export function collectSkillEntries(dir: string, mode: "pi" | "agents"): string[] {
	const scan = new DirectoryScan();
	const files: string[] = [];
	const walk = (current: string, inherited: readonly IgnoreFile[], isRoot: boolean) => {
		if (!scan.enter(current)) return;
		const { entries, ignores } = scan.entries(current, inherited);
		const skillFile = entries.find((entry) => entry.isFile && entry.name === "SKILL.md");
		if (skillFile) {
			files.push(skillFile.path);
			return;
		}
		const looseCandidates = mode === "agents" ? !isRoot : isRoot;
		for (const entry of entries) {
			if (entry.isFile && entry.name.endsWith(".md") && looseCandidates) files.push(entry.path);
			else if (entry.isDirectory) walk(entry.path, ignores, false);
		}
	};
	walk(dir, [], true);
	return files;
}

/** Entry files a package.json manifest (`tau`, else `pi`) lists under `extensions`, if any exist. */
function manifestExtensionEntries(dir: string): string[] | undefined {
	const manifestPath = join(dir, "package.json");
	if (!existsSync(manifestPath)) return undefined;
	try {
		const manifest = readPackageManifest(JSON.parse(readFileSync(manifestPath, "utf8")));
		if (!Array.isArray(manifest?.extensions)) return undefined;
		const entries = manifest.extensions
			.filter((entry): entry is string => typeof entry === "string")
			.map((entry) => join(dir, entry))
			.filter((path) => existsSync(path));
		return entries.length > 0 ? entries : undefined;
	} catch {
		return undefined;
	}
}

/** The resource manifest of a parsed package.json: the `tau` object, else the `pi` object. */
export function readPackageManifest(packageJson: unknown): Record<string, unknown> | undefined {
	if (typeof packageJson !== "object" || packageJson === null) return undefined;
	const record = packageJson as Record<string, unknown>;
	for (const key of ["tau", "pi"]) {
		const value = record[key];
		if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
	}
	return undefined;
}

/** The entry point of an extension directory: manifest entries, else `index.ts`, else `index.js`. */
function extensionEntryPoints(dir: string): string[] | undefined {
	const fromManifest = manifestExtensionEntries(dir);
	if (fromManifest) return fromManifest;
	for (const index of ["index.ts", "index.js"]) {
		const path = join(dir, index);
		if (existsSync(path)) return [path];
	}
	return undefined;
}

/**
 * Extensions of a directory: its own entry point when it has one; otherwise every direct
 * `*.ts`/`*.js` file plus the entry point of each subdirectory (one level only).
 */
export function collectExtensionEntries(dir: string): string[] {
	const own = extensionEntryPoints(dir);
	if (own) return own;
	const scan = new DirectoryScan();
	const files: string[] = [];
	for (const entry of scan.entries(dir).entries) {
		if (entry.isFile && /\.(ts|js)$/.test(entry.name)) files.push(entry.path);
		else if (entry.isDirectory) files.push(...(extensionEntryPoints(entry.path) ?? []));
	}
	return files;
}
