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

/** Frames are coalesced up to this many bytes per socket write: fewer syscalls for huge turns. */
const BATCH_BYTES = 16 * 1024;

/** Resolves when the response is closed, by the client or by the server destroying the socket. */
export function whenClosed(res: ServerResponse): Promise<"closed"> {
	return new Promise((resolve) => {
		if (res.destroyed || res.socket?.destroyed !== false) resolve("closed");
		else res.once("close", () => resolve("closed"));
	});
}

function write(res: ServerResponse, chunk: Buffer): Promise<boolean> {
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
	let batch: Buffer[] = [];
	let batchBytes = 0;
	const flush = async (): Promise<boolean> => {
		if (batchBytes === 0) return !res.destroyed;
		const chunk = Buffer.concat(batch, batchBytes);
		batch = [];
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
		const bytes =
			typeof frame === "string" ? Buffer.from(frame) : Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
		if (cut?.afterBytes !== undefined && sent + batchBytes + bytes.length >= cut.afterBytes) {
			const head = bytes.subarray(0, Math.max(0, cut.afterBytes - sent - batchBytes));
			batch.push(head);
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
		batch.push(bytes);
		batchBytes += bytes.length;
		if (batchBytes >= BATCH_BYTES && !(await flush())) return "closed";
	}
	if (!(await flush())) return "closed";
	if (cut !== undefined) return finishCut(res, cut);
	res.end();
	return "completed";
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
