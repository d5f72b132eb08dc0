import { randomBytes, randomUUID } from "node:crypto";

const ENTRY_ID_ATTEMPTS = 100;
const SESSION_ID_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** A short entry id (8 lowercase hex chars) not present in `existingIds`; a full UUID after 100 collisions. */
export function generateId(existingIds: { has(id: string): boolean }): string {
	for (let attempt = 0; attempt < ENTRY_ID_ATTEMPTS; attempt++) {
		const id = randomUUID().slice(0, 8);
		if (!existingIds.has(id)) return id;
	}
	return randomUUID();
}

/** An RFC 9562 UUID version 7 (millisecond time prefix, so session ids sort by creation). */
export function createSessionId(now: number = Date.now()): string {
	const bytes = randomBytes(16);
	let ms = BigInt(now);
	for (let i = 5; i >= 0; i--) {
		bytes[i] = Number(ms & 0xffn);
		ms >>= 8n;
	}
	bytes[6] = (bytes[6]! & 0x0f) | 0x70;
	bytes[8] = (bytes[8]! & 0x3f) | 0x80;
	const hex = bytes.toString("hex");
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Throws unless `id` is usable as a custom session id (it becomes part of a file name). */
export function assertValidSessionId(id: string): void {
	if (!SESSION_ID_PATTERN.test(id)) {
		throw new Error(
			"Session id must be non-empty, contain only alphanumeric characters, '-', '_', and '.', and start and end with an alphanumeric character",
		);
	}
}
