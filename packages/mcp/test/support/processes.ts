import { execFileSync } from "node:child_process";

/** Live (non-zombie) process ids in process group `pgid`. */
export function liveGroupMembers(pgid: number): number[] {
	const out = execFileSync("ps", ["-A", "-o", "pid=,pgid=,stat="], { encoding: "utf8" });
	return out
		.split("\n")
		.map((line) => line.trim().split(/\s+/))
		.filter((parts) => parts.length === 3 && Number(parts[1]) === pgid && !parts[2]!.startsWith("Z"))
		.map((parts) => Number(parts[0]));
}

/** Polls with a bounded number of attempts (process death is asynchronous) until the group is gone. */
export async function waitForGroupGone(pgid: number, attempts = 200): Promise<number[]> {
	let members = liveGroupMembers(pgid);
	for (let i = 0; i < attempts && members.length > 0; i++) {
		await new Promise((resolve) => setTimeout(resolve, 25));
		members = liveGroupMembers(pgid);
	}
	return members;
}
