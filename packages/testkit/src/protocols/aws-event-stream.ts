import { crc32 } from "node:zlib";

/** Header value type 7: a UTF-8 string with a 2-byte length. */
const STRING_TYPE = 7;

function encodeHeaders(headers: Record<string, string>): Buffer {
	const parts: Buffer[] = [];
	for (const [name, value] of Object.entries(headers)) {
		const nameBytes = Buffer.from(name, "utf8");
		const valueBytes = Buffer.from(value, "utf8");
		const header = Buffer.alloc(1 + nameBytes.length + 1 + 2 + valueBytes.length);
		let offset = header.writeUInt8(nameBytes.length, 0);
		offset += nameBytes.copy(header, offset);
		offset = header.writeUInt8(STRING_TYPE, offset);
		offset = header.writeUInt16BE(valueBytes.length, offset);
		valueBytes.copy(header, offset);
		parts.push(header);
	}
	return Buffer.concat(parts);
}

/**
 * One message of the AWS event-stream binary framing (`application/vnd.amazon.eventstream`): total and
 * header lengths, a CRC of that prelude, the headers, the payload, and a CRC of everything before it.
 */
export function eventStreamMessage(headers: Record<string, string>, payload: unknown): Buffer {
	const headerBytes = encodeHeaders(headers);
	const payloadBytes = Buffer.from(JSON.stringify(payload), "utf8");
	const total = 12 + headerBytes.length + payloadBytes.length + 4;
	const message = Buffer.alloc(total);
	message.writeUInt32BE(total, 0);
	message.writeUInt32BE(headerBytes.length, 4);
	message.writeUInt32BE(crc32(message.subarray(0, 8)), 8);
	headerBytes.copy(message, 12);
	payloadBytes.copy(message, 12 + headerBytes.length);
	message.writeUInt32BE(crc32(message.subarray(0, total - 4)), total - 4);
	return message;
}

/** An event of a modeled event stream (`:event-type` names the union member). */
export function eventMessage(eventType: string, payload: unknown): Buffer {
	return eventStreamMessage(
		{ ":event-type": eventType, ":content-type": "application/json", ":message-type": "event" },
		payload,
	);
}

/** A modeled exception sent inside the stream (for example `throttlingException`). */
export function exceptionMessage(exceptionType: string, message: string): Buffer {
	return eventStreamMessage(
		{ ":exception-type": exceptionType, ":content-type": "application/json", ":message-type": "exception" },
		{ message },
	);
}
