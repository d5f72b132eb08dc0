import type { FileEntry, SessionEntry } from "./types.js";

/**
 * Message bodies read on first use (docs/design/session-runtime.md#opening-a-long-session). A line of
 * the shape the writer produces, `{"type":"message","id":…,"parentId":…,"timestamp":…,"message":{…}}`,
 * becomes an entry whose `message` is an own enumerable accessor; the first read parses the body and
 * puts a plain data property in its place (same key order), so a read entry cannot be told from one
 * parsed whole.
 */

/** How many bodies of one load are still unread. */
export interface DeferredBodies {
	unread: number;
}

interface DeferredBody {
	/** The whole line; the body runs from `start` to the line's last character. */
	text: string;
	start: number;
	/** 1-based line number in the file. */
	line: number;
	bodies: DeferredBodies;
}

/** A deferred body that is not JSON: the line would have been skipped as unparseable by a full load. */
export class UnreadableSessionEntryError extends Error {
	constructor(
		readonly entryId: string,
		readonly line: number,
		cause: unknown,
	) {
		super(
			`Session entry ${entryId} (line ${line}) has an unreadable message body: ${cause instanceof Error ? cause.message : String(cause)}`,
		);
		this.name = "UnreadableSessionEntryError";
	}
}

/** Where an entry keeps its unread body: a non-enumerable own property (cheaper to add than a WeakMap key). */
const BODY = Symbol("deferred message body");

type Deferrable = object & { [BODY]?: DeferredBody | undefined };

function pendingBody(entry: object): DeferredBody | undefined {
	return (entry as Deferrable)[BODY];
}

function storeMessage(entry: object, value: unknown): void {
	Object.defineProperty(entry, "message", { value, writable: true, enumerable: true, configurable: true });
}

/** One getter/setter pair for every deferred entry. */
const MESSAGE_ACCESSOR: PropertyDescriptor = {
	get(this: SessionEntry): unknown {
		const body = pendingBody(this);
		return body ? readBody(this, body) : undefined;
	},
	set(this: SessionEntry, value: unknown): void {
		settle(this);
		storeMessage(this, value);
	},
	enumerable: true,
	configurable: true,
};

function settle(entry: object): void {
	const body = pendingBody(entry);
	if (!body) return;
	(entry as Deferrable)[BODY] = undefined;
	body.bodies.unread--;
}

/** Parses the body and makes `message` a data property; throws `UnreadableSessionEntryError`. */
function readBody(entry: SessionEntry, body: DeferredBody): unknown {
	let message: unknown;
	try {
		message = JSON.parse(body.text.slice(body.start, -1));
	} catch (error) {
		// Not a body on its own, but maybe a valid line with fields after `message` (hand-edited): take
		// the line as a full parse would, every field in the parsed order.
		const whole = parseObject(body.text);
		if (!whole) throw new UnreadableSessionEntryError(entry.id, body.line, error);
		settle(entry);
		for (const [key, value] of Object.entries(whole)) {
			Object.defineProperty(entry, key, { value, writable: true, enumerable: true, configurable: true });
		}
		return (entry as { message: unknown }).message;
	}
	settle(entry);
	storeMessage(entry, message);
	return message;
}

function parseObject(text: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return typeof value === "object" && value !== null && !Array.isArray(value)
			? (value as Record<string, unknown>)
			: undefined;
	} catch {
		return undefined;
	}
}

/** Reads a deferred body now; false when it does not parse (the accessor stays). True for any other entry. */
export function readDeferredBody(entry: SessionEntry): boolean {
	const body = pendingBody(entry);
	if (!body) return true;
	try {
		readBody(entry, body);
		return true;
	} catch (error) {
		if (error instanceof UnreadableSessionEntryError) return false;
		throw error;
	}
}

/** The 1-based file line of an entry whose body is deferred and not read yet. */
export function deferredLine(entry: object): number | undefined {
	return pendingBody(entry)?.line;
}

/** Gives up an unread body (its entry is being dropped): its line number and text. */
export function dropDeferredBody(entry: object): { line: number; text: string } | undefined {
	const body = pendingBody(entry);
	if (!body) return undefined;
	settle(entry);
	return { line: body.line, text: body.text };
}

/** The entry's message, or undefined when its deferred body does not parse (indexing must not throw). */
export function readableMessage(entry: SessionEntry): unknown {
	return readDeferredBody(entry) && entry.type === "message" ? entry.message : undefined;
}

/**
 * The envelope of a line in the writer's shape, up to the body's opening brace: strings without escapes
 * or control characters, so the captured text is exactly what a full parse would give.
 */
const ENVELOPE =
	/^\{"type":"message","id":"([^"\\\x00-\x1f]*)","parentId":(?:null|"([^"\\\x00-\x1f]*)"),"timestamp":"([^"\\\x00-\x1f]*)","message":\{/;

/**
 * Reads the envelope of a line in the writer's message shape and defers its body; undefined for any
 * other line (the caller parses it whole).
 */
export function deferMessageLine(text: string, line: number, bodies: DeferredBodies): FileEntry | undefined {
	const last = text.length - 1;
	if (text.charCodeAt(last) !== 125 || text.charCodeAt(last - 1) !== 125) return undefined;
	const envelope = ENVELOPE.exec(text);
	if (envelope === null) return undefined;
	const start = envelope[0].length - 1;
	if (start > last - 1) return undefined;
	const entry = { type: "message", id: envelope[1], parentId: envelope[2] ?? null, timestamp: envelope[3] };
	Object.defineProperty(entry, "message", MESSAGE_ACCESSOR);
	Object.defineProperty(entry, BODY, { value: { text, start, line, bodies }, writable: true });
	bodies.unread++;
	return entry as FileEntry;
}
