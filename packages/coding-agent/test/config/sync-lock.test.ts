import { writeFileSync } from "node:fs";
import { join } from "node:path";
import lockfile from "proper-lockfile";
import { describe, expect, it } from "vitest";
import { lockSyncWithRetry } from "../../src/config/fs/sync-lock.js";
import { tempDirs } from "./helpers.js";

function lockedFile() {
	const { root } = tempDirs();
	const path = join(root, "settings.json");
	writeFileSync(path, "{}");
	const releaseHolder = lockfile.lockSync(path, { realpath: false });
	return { path, releaseHolder };
}

describe("synchronous lock contention (10 attempts, 20 ms apart)", () => {
	it("succeeds when the holder releases while the caller is retrying", () => {
		const { path, releaseHolder } = lockedFile();
		const waits: number[] = [];
		const release = lockSyncWithRetry(path, {
			wait: (ms) => {
				waits.push(ms);
				if (waits.length === 3) releaseHolder();
			},
		});
		expect(waits).toEqual([20, 20, 20]);
		expect(lockfile.checkSync(path, { realpath: false })).toBe(true);
		release();
		expect(lockfile.checkSync(path, { realpath: false })).toBe(false);
	});

	it("gives up with ELOCKED after the tenth attempt when the lock stays held", () => {
		const { path, releaseHolder } = lockedFile();
		const waits: number[] = [];
		expect(() => lockSyncWithRetry(path, { wait: (ms) => waits.push(ms) })).toThrow(
			expect.objectContaining({ code: "ELOCKED" }),
		);
		expect(waits).toHaveLength(9);
		releaseHolder();
	});
});
