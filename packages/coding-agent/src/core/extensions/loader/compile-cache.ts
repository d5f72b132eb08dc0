import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The first line of every entry: the marker and the SHA-256 of the code that follows it. */
const HEADER_PREFIX = "//tau-compiled:";

function sha256(text: string): string {
	return createHash("sha256").update(text).digest("hex");
}

/**
 * Compiled extension modules on disk, one file per compiled source (docs/extensions.md, "Loading").
 * Keys cover everything the output depends on, so an entry never goes stale: it is simply not
 * looked up again. Writes are atomic (a temp file renamed into place), so two tau processes may
 * fill the same cache at once; an entry whose checksum does not match its code is ignored and
 * rewritten. Every failure falls back to compiling: the cache can make a start faster, never fail it.
 */
export class CompileCache {
	private pruned = false;

	/**
	 * @param root the cache directory shared by all versions (`<agentDir>/cache/extensions`)
	 * @param version the directory of this tau version inside `root`; other versions' directories
	 *   are removed on the first write
	 */
	constructor(
		private readonly root: string,
		private readonly version: string,
	) {}

	private get dir(): string {
		return join(this.root, this.version);
	}

	/** The entry's key: a hash of the compiler's identity, the options and the source. */
	static key(parts: readonly string[]): string {
		return sha256(JSON.stringify(parts));
	}

	/** The cached code of `key`, or undefined when it is missing, unreadable or corrupt. */
	read(key: string): string | undefined {
		let text: string;
		try {
			text = readFileSync(join(this.dir, `${key}.js`), "utf8");
		} catch {
			return undefined;
		}
		const newline = text.indexOf("\n");
		if (newline < 0 || !text.startsWith(HEADER_PREFIX)) return undefined;
		const code = text.slice(newline + 1);
		return text.slice(HEADER_PREFIX.length, newline) === sha256(code) ? code : undefined;
	}

	/** Stores `code` under `key`: written to a unique temp file, then renamed over the entry. */
	write(key: string, code: string): void {
		const target = join(this.dir, `${key}.js`);
		const temp = `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
		try {
			mkdirSync(this.dir, { recursive: true });
			this.pruneOtherVersions();
			writeFileSync(temp, `${HEADER_PREFIX}${sha256(code)}\n${code}`);
			renameSync(temp, target);
		} catch {
			try {
				unlinkSync(temp);
			} catch {
				// The temp file was never created.
			}
		}
	}

	/** Entries of other tau versions can never be hit again; removed once per process. */
	private pruneOtherVersions(): void {
		if (this.pruned) return;
		this.pruned = true;
		for (const name of readdirSync(this.root)) {
			if (name !== this.version) rmSync(join(this.root, name), { recursive: true, force: true });
		}
	}
}
