import { randomBytes } from "node:crypto";

/** An RFC 9562 UUIDv7: 48-bit ms timestamp, version 7, variant 10, random rest. */
export function uuidv7(): string {
	const bytes = randomBytes(16);
	const ms = Date.now();
	bytes.writeUIntBE(ms, 0, 6);
	bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70;
	bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
	const hex = bytes.toString("hex");
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
