import type { ServerResponse } from "node:http";

/** Where a body stops early (after N bytes or N frames) and what happens then. */
export interface BodyCut {
	afterBytes?: number;
	afterEvents?: number;
	action: "disconnect" | "truncate" | "stall";
}

/** An unparsable frame inserted after `afterEvents` frames. */
export interface BodyCorruption {
	afterEvents: number;
	frame: string | Uint8Array;
}

export type WriteResult = "completed" | "disconnected" | "closed";

/** Spaces frames out in time: frame `n` leaves no earlier than `n / framesPerSecond` after the first. */
export interface BodyPace {
	framesPerSecond: number;
}

/**
 * Frames are coalesced up to this many bytes per socket write: a 200k-token turn is 24 MB of SSE, and the
 * server shares the machine with the client it serves, so fewer, larger writes keep its own cost small.
 */
const BATCH_BYTES = 64 * 1024;

/** Resolves when the response is closed, by the client or by the server destroying the socket. */
export function whenClosed(res: ServerResponse): Promise<"closed"> {
	return new Promise((resolve) => {
		if (res.destroyed || res.socket?.destroyed !== false) resolve("closed");
		else res.once("close", () => resolve("closed"));
	});
}

function write(res: ServerResponse, chunk: string | Buffer): Promise<boolean> {
	return new Promise((resolve) => {
		if (res.destroyed) return resolve(false);
		const onClose = () => resolve(false);
		res.once("close", onClose);
		// The callback fires once the chunk is handed to the socket, so a following destroy cannot drop it.
		res.write(chunk, () => {
			res.off("close", onClose);
			resolve(!res.destroyed);
		});
	});
}

type Frame = string | Uint8Array;

function* withCorruption(frames: Iterable<Frame>, corruption: BodyCorruption | undefined): Generator<Frame> {
	let count = 0;
	for (const frame of frames) {
		if (corruption !== undefined && count === corruption.afterEvents) yield corruption.frame;
		yield frame;
		count++;
	}
	if (corruption !== undefined && count <= corruption.afterEvents) yield corruption.frame;
}

/** Resolves at `due` (a `performance.now()` time); at once when that has passed. */
function waitUntil(due: number): Promise<void> {
	const delay = due - performance.now();
	return delay <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, delay));
}

/**
 * Writes `frames` as the response body with backpressure, applying a cut (disconnect, clean
 * truncation or stall after N bytes), a corruption and a pace. Stops early when the client goes away.
 */
export async function writeBody(
	res: ServerResponse,
	frames: Iterable<Frame>,
	cut: BodyCut | undefined,
	corruption?: BodyCorruption,
	pace?: BodyPace,
): Promise<WriteResult> {
	res.flushHeaders();
	const started = performance.now();
	let sent = 0;
	let batch: Frame[] = [];
	let batchBytes = 0;
	let binary = false;
	// Exact byte counts matter only for a byte cut; otherwise the string length is close enough to batch by.
	const sizeOf = (frame: Frame) =>
		typeof frame !== "string"
			? frame.byteLength
			: cut?.afterBytes !== undefined
				? Buffer.byteLength(frame)
				: frame.length;
	const flush = async (): Promise<boolean> => {
		if (batch.length === 0) return !res.destroyed;
		// Text frames go out as one string, encoded once; binary protocols (AWS event stream) as one buffer.
		const chunk = binary ? Buffer.concat(batch.map(toBuffer)) : (batch as string[]).join("");
		batch = [];
		binary = false;
		sent += batchBytes;
		batchBytes = 0;
		return write(res, chunk);
	};
	let events = 0;
	for (const frame of withCorruption(frames, corruption)) {
		if (cut?.afterEvents === events++) {
			if (!(await flush())) return "closed";
			return finishCut(res, cut);
		}
		const size = sizeOf(frame);
		if (cut?.afterBytes !== undefined && sent + batchBytes + size >= cut.afterBytes) {
			const head = toBuffer(frame).subarray(0, Math.max(0, cut.afterBytes - sent - batchBytes));
			batch.push(head);
			binary = true;
			batchBytes += head.length;
			if (!(await flush())) return "closed";
			return finishCut(res, cut);
		}
		if (pace !== undefined && events > 1) {
			// Due times come from the start, so timer lateness never slows the average rate.
			const due = started + ((events - 1) * 1000) / pace.framesPerSecond;
			if (due > performance.now()) {
				if (!(await flush())) return "closed";
				await waitUntil(due);
			}
		}
		batch.push(frame);
		if (typeof frame !== "string") binary = true;
		batchBytes += size;
		if (batchBytes >= BATCH_BYTES && !(await flush())) return "closed";
	}
	if (!(await flush())) return "closed";
	if (cut !== undefined) return finishCut(res, cut);
	res.end();
	return "completed";
}

function toBuffer(frame: Frame): Buffer {
	return typeof frame === "string"
		? Buffer.from(frame)
		: Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
}

async function finishCut(res: ServerResponse, cut: BodyCut): Promise<WriteResult> {
	switch (cut.action) {
		case "disconnect":
			res.destroy();
			return "disconnected";
		case "truncate":
			res.end();
			return "completed";
		case "stall":
			return whenClosed(res);
	}
}
