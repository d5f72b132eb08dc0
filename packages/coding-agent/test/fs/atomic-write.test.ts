import { spawn } from "node:child_process";
import {
	chmodSync,
	existsSync,
	lstatSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	readlinkSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
	type AtomicWriteFileSystem,
	type AtomicWriteFileSystemAsync,
	nodeAtomicWriteFileSystem,
	writeFileAtomic,
	writeFileAtomicSync,
} from "../../src/core/fs/atomic-write.js";

const CHILD = fileURLToPath(new URL("./atomic-write-child.mjs", import.meta.url));

function folder(): string {
	return mkdtempSync(join(tmpdir(), "tau-atomic-"));
}

/** Temporary files left in a folder (there must be none after a finished or failed write). */
function leftovers(dir: string): string[] {
	return readdirSync(dir).filter((name) => name.endsWith(".tmp"));
}

const enospc = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

/** Writes the first `budget` bytes, then fails like a full disk. */
function fullDisk(budget: number): AtomicWriteFileSystem {
	let left = budget;
	return {
		...nodeAtomicWriteFileSystem,
		writeSync(fd, data) {
			const bytes = typeof data === "string" ? Buffer.from(data) : data;
			if (left <= 0) throw enospc();
			const written = nodeAtomicWriteFileSystem.writeSync(fd, bytes.subarray(0, Math.min(left, bytes.length)));
			left -= written;
			return written;
		},
	};
}

function fullDiskAsync(budget: number): AtomicWriteFileSystemAsync {
	let left = budget;
	return {
		rename,
		unlink,
		async open(path, flags, mode) {
			const handle = await open(path, flags, mode);
			return {
				write: async (buffer, offset, length) => {
					if (left <= 0) throw enospc();
					const { bytesWritten } = await handle.write(buffer, offset, Math.min(length, left));
					left -= bytesWritten;
					return { bytesWritten };
				},
				sync: () => handle.sync(),
				chmod: (m) => handle.chmod(m),
				chown: (u, g) => handle.chown(u, g),
				close: () => handle.close(),
			};
		},
	};
}

describe("writeFileAtomicSync", () => {
	it("replaces the content and keeps the file's mode whatever the umask", () => {
		const dir = folder();
		const path = join(dir, "settings.json");
		writeFileSync(path, "old");
		chmodSync(path, 0o640);
		const umask = process.umask(0o077);
		try {
			writeFileAtomicSync(path, "new");
		} finally {
			process.umask(umask);
		}
		expect(readFileSync(path, "utf8")).toBe("new");
		expect(statSync(path).mode & 0o777).toBe(0o640);
		expect(leftovers(dir)).toEqual([]);
	});

	it("creates a new file with the requested mode", () => {
		const dir = folder();
		writeFileAtomicSync(join(dir, "auth.json"), "{}", { newFileMode: 0o600 });
		expect(statSync(join(dir, "auth.json")).mode & 0o777).toBe(0o600);
	});

	it("writes through a symlink (also a dangling one): the link stays a link", () => {
		const dir = folder();
		writeFileSync(join(dir, "real.json"), "old");
		symlinkSync("real.json", join(dir, "link.json"));
		writeFileAtomicSync(join(dir, "link.json"), "new");
		expect(lstatSync(join(dir, "link.json")).isSymbolicLink()).toBe(true);
		expect(readFileSync(join(dir, "real.json"), "utf8")).toBe("new");
		symlinkSync("missing.json", join(dir, "dangling.json"));
		writeFileAtomicSync(join(dir, "dangling.json"), "created");
		expect(readlinkSync(join(dir, "dangling.json"))).toBe("missing.json");
		expect(readFileSync(join(dir, "missing.json"), "utf8")).toBe("created");
	});

	it("on a full disk the original stays byte-identical, nothing is left behind, and the error says so", () => {
		const dir = folder();
		const path = join(dir, "notes.md");
		const original = Buffer.from("original ✓ content\n".repeat(100));
		writeFileSync(path, original);
		let error: (Error & { code?: string }) | undefined;
		try {
			writeFileAtomicSync(path, "x".repeat(10_000), { fs: fullDisk(4096) });
		} catch (caught) {
			error = caught as Error & { code?: string };
		}
		expect(error?.message).toBe(`Disk full: could not write ${path}; the file was left unchanged`);
		expect(error?.code).toBe("ENOSPC");
		expect(readFileSync(path).equals(original)).toBe(true);
		expect(leftovers(dir)).toEqual([]);
	});

	it("a failing rename leaves the original and removes the temporary file", () => {
		const dir = folder();
		const path = join(dir, "a.txt");
		writeFileSync(path, "old");
		const fs: AtomicWriteFileSystem = {
			...nodeAtomicWriteFileSystem,
			renameSync: () => {
				throw Object.assign(new Error("EIO"), { code: "EIO" });
			},
		};
		expect(() => writeFileAtomicSync(path, "new", { fs })).toThrow(`Input/output error: could not write ${path}`);
		expect(readFileSync(path, "utf8")).toBe("old");
		expect(leftovers(dir)).toEqual([]);
	});

	it("exclusive: never replaces an existing file", () => {
		const dir = folder();
		writeFileSync(join(dir, "report.zip"), "mine");
		expect(() => writeFileAtomicSync(join(dir, "report.zip"), "theirs", { exclusive: true })).toThrow("File exists");
		expect(readFileSync(join(dir, "report.zip"), "utf8")).toBe("mine");
		writeFileAtomicSync(join(dir, "new.zip"), "fresh", { exclusive: true });
		expect(readFileSync(join(dir, "new.zip"), "utf8")).toBe("fresh");
		expect(leftovers(dir)).toEqual([]);
	});

	it("a device is written in place, never replaced by a regular file", () => {
		writeFileAtomicSync("/dev/null", "discarded");
		expect(statSync("/dev/null").isCharacterDevice()).toBe(true);
	});
});

describe("writeFileAtomic (the write and edit tools)", () => {
	it("on a full disk the original stays byte-identical and the error names the file", async () => {
		const dir = folder();
		const path = join(dir, "big.ts");
		writeFileSync(path, "export const x = 1;\n");
		await expect(writeFileAtomic(path, "y".repeat(100_000), { fs: fullDiskAsync(1000) })).rejects.toThrow(
			`Disk full: could not write ${path}; the file was left unchanged`,
		);
		expect(readFileSync(path, "utf8")).toBe("export const x = 1;\n");
		expect(leftovers(dir)).toEqual([]);
	});

	it("a new file that does not fit is not created at all", async () => {
		const dir = folder();
		const path = join(dir, "new.ts");
		await expect(writeFileAtomic(path, "y".repeat(100_000), { fs: fullDiskAsync(10) })).rejects.toThrow(
			`Disk full: could not write ${path}; it was not created`,
		);
		expect(existsSync(path)).toBe(false);
		expect(leftovers(dir)).toEqual([]);
	});
});

const SIZE = 200 * 1024 * 1024;

/** Runs the child writer and kills it with SIGKILL once `ready` holds for the folder. */
async function killMidWrite(path: string, ready: (tempSize: number) => boolean): Promise<void> {
	const dir = join(path, "..");
	const child = spawn(process.execPath, [CHILD, path, String(SIZE)], { stdio: ["ignore", "pipe", "inherit"] });
	const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
	// Polls what the child has written so far; the bound only turns a hang into a failure.
	for (let round = 0; round < 20_000; round++) {
		const temp = leftovers(dir)[0];
		const size = temp ? (statSync(join(dir, temp), { throwIfNoEntry: false })?.size ?? 0) : 0;
		if ((temp && ready(size)) || child.exitCode !== null) break;
		await new Promise((resolve) => setTimeout(resolve, 2));
	}
	child.kill("SIGKILL");
	await exited;
}

describe("kill -9 during a 200 MB write", () => {
	it.each([
		["as the temporary file appears", (size: number) => size >= 0],
		["with a quarter written", (size: number) => size >= SIZE / 4],
		["with most of it written", (size: number) => size >= (SIZE * 3) / 4],
	])(
		"leaves the file either old or new, never partial (%s)",
		async (_label, ready) => {
			const dir = folder();
			const path = join(dir, "data.bin");
			const old = Buffer.from("the old content\n".repeat(1000));
			writeFileSync(path, old);
			await killMidWrite(path, ready);
			const now = readFileSync(path);
			const isNew = now.length === SIZE && now.every((byte) => byte === 0x6e);
			expect(now.equals(old) || isNew).toBe(true);
			// Killed before the rename: the partial data is in the temporary file, never in the target.
			if (!isNew) expect(leftovers(dir)).toHaveLength(1);
		},
		60_000,
	);
});
