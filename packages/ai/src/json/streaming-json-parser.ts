import type { JsonObject, JsonValue } from "../types/json.js";
import { FlatteningText } from "./flattening-text.js";

/** Where a value sits in a JSON document: object keys and array indexes from the root. */
export type JsonPath = readonly (string | number)[];

/** One change the streaming JSON parser reports: a value set at a path, or text appended to a string at a path. */
export type JsonChange =
	| { kind: "set"; path: JsonPath; value: JsonValue }
	| { kind: "append"; path: JsonPath; text: string };

/** Containers deeper than this are reported as one `set` when they close. */
const MAX_REPORTED_DEPTH = 32;
/** Copy credit every `append` earns on top of its length. */
const CREDIT_PER_APPEND = 64;

type Slot = { discard: true } | { discard: false; key: string | number | undefined };

interface Frame {
	kind: "object" | "array";
	value: JsonObject | JsonValue[];
	/** Object: what is expected next. Array: "value" or "comma". */
	state: "key" | "colon" | "value" | "comma";
	/** Key of the member being read (objects). */
	key?: string;
	/** Where this container goes in its parent once closed. */
	slot: Slot;
	depth: number;
	/** Own path, known only while changes are reported for it. */
	path?: JsonPath;
}

type Scalar =
	| { kind: "string"; text: FlatteningText; isKey: boolean; unreported: string; reported: boolean }
	| { kind: "number" | "literal"; text: string };

interface PendingScalar {
	scalar: Scalar;
	slot: Slot;
	path?: JsonPath;
}

const LITERALS: Record<string, JsonValue> = { true: true, false: false, null: null };

function isWhitespace(c: string): boolean {
	return c === " " || c === "\n" || c === "\r" || c === "\t";
}
function isNumberStart(c: string): boolean {
	return (c >= "0" && c <= "9") || c === "-";
}
function isNumberChar(c: string): boolean {
	return (c >= "0" && c <= "9") || c === "-" || c === "+" || c === "." || c === "e" || c === "E";
}
function isWordChar(c: string): boolean {
	return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
}
function isHex(c: string): boolean {
	return (c >= "0" && c <= "9") || (c >= "a" && c <= "f") || (c >= "A" && c <= "F");
}

/** The value of a possibly unterminated number: an exponent or fraction without digits is ignored. */
function lenientNumber(text: string): number | undefined {
	const trimmed = text.replace(/[eE][-+]?$/, "").replace(/\.$/, "");
	if (!/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(trimmed)) return undefined;
	const value = Number(trimmed);
	return Number.isFinite(value) ? value : undefined;
}

function literalPreview(text: string): JsonValue | undefined {
	for (const [word, value] of Object.entries(LITERALS)) if (text.length > 0 && word.startsWith(text)) return value;
	return undefined;
}

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

function setMember(target: JsonObject, key: string, value: JsonValue): void {
	if (key === "__proto__")
		Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
	else target[key] = value;
}

/**
 * Incremental, tolerant JSON parser for streamed tool arguments. Each character is read once; snapshots are
 * immutable (closed containers and finished strings are shared, only the open path is copied) and paid for
 * by copy credit, so total work stays linear in the text however it is chunked. It never throws.
 */
export class StreamingJsonParser {
	private readonly stack: Frame[] = [];
	private pending: PendingScalar | undefined;
	/** Escape sequence being read inside a string (`\` or `\uXX`), held back until complete. */
	private escape = "";
	private root: JsonValue | undefined;
	private rootDone = false;
	private changes: JsonChange[] = [];
	private dirty = false;
	private last: JsonValue | undefined;
	private credit = 0;
	/** Members of all open containers plus their count: what one fresh snapshot costs to copy. */
	private openCost = 0;
	/** Instrumentation: characters visited, elements copied for snapshots, open strings flattened. */
	readonly work = { chars: 0, copies: 0, flattens: 0 };

	append(text: string): readonly JsonChange[] {
		this.changes = [];
		this.credit += text.length + CREDIT_PER_APPEND;
		let i = 0;
		while (i < text.length) {
			const pending = this.pending;
			if (pending?.scalar.kind === "string") i = this.readString(text, i, pending);
			else {
				this.work.chars++;
				this.readChar(text[i] as string);
				i++;
			}
		}
		this.reportOpenString();
		return this.changes;
	}

	snapshot(): JsonValue | undefined {
		if (!this.dirty) return this.last;
		if (this.last !== undefined && this.credit < this.openCost) return this.last;
		this.credit -= this.openCost;
		this.dirty = false;
		this.last = this.build();
		return this.last;
	}

	/** Reads string characters from `start`; returns the index after what it consumed. */
	private readString(text: string, start: number, pending: PendingScalar): number {
		let i = start;
		let runStart = i;
		const flush = (end: number) => {
			if (end > runStart) this.extendString(pending, text.slice(runStart, end));
		};
		while (i < text.length) {
			const c = text[i] as string;
			this.work.chars++;
			if (this.escape) {
				if (this.escape.length >= 2 && !isHex(c)) {
					// A broken `\u` escape stays literal and `c` is read again as ordinary string text.
					this.extendString(pending, this.escape);
					this.escape = "";
					runStart = i;
					continue;
				}
				this.escape += c;
				i++;
				runStart = i;
				this.continueEscape(pending);
				continue;
			}
			if (c === "\\") {
				flush(i);
				this.escape = "\\";
				i++;
				runStart = i;
				continue;
			}
			if (c === '"') {
				flush(i);
				this.pending = undefined;
				this.finishScalar(pending);
				return i + 1;
			}
			i++;
		}
		flush(i);
		return i;
	}

	private continueEscape(pending: PendingScalar): void {
		const seq = this.escape;
		let decoded: string | undefined;
		if (seq.length === 2 && seq[1] !== "u") decoded = ESCAPES[seq[1] as string] ?? seq;
		else if (seq.length === 6) decoded = String.fromCharCode(Number.parseInt(seq.slice(2), 16));
		if (decoded === undefined) return;
		this.escape = "";
		this.extendString(pending, decoded);
	}

	/** Growth is kept apart as well: slicing the accumulated text would flatten it on every report. */
	private extendString(pending: PendingScalar, piece: string): void {
		const scalar = pending.scalar as Extract<Scalar, { kind: "string" }>;
		if (scalar.text.append(piece)) this.work.flattens++;
		if (scalar.isKey || pending.slot.discard) return;
		scalar.unreported += piece;
		this.dirty = true;
	}

	private readChar(c: string): void {
		const pending = this.pending;
		if (pending) {
			const scalar = pending.scalar;
			if ((scalar.kind === "number" && isNumberChar(c)) || (scalar.kind === "literal" && isWordChar(c))) {
				scalar.text += c;
				if (!pending.slot.discard) this.dirty = true;
				return;
			}
			this.pending = undefined;
			this.finishScalar(pending);
		}
		if (isWhitespace(c)) return;
		const frame = this.stack.at(-1);
		if (!frame) {
			if (!this.rootDone) this.startValue(c, { discard: false, key: undefined });
			return;
		}
		if (frame.kind === "object") this.readInObject(frame, c);
		else this.readInArray(frame, c);
	}

	private readInObject(frame: Frame, c: string): void {
		if (c === "}") {
			this.closeContainer();
			return;
		}
		if (c === ",") {
			frame.state = "key";
			return;
		}
		if (c === ":") {
			if (frame.state === "colon") frame.state = "value";
			return;
		}
		if (frame.state === "key" || frame.state === "comma") {
			if (c === '"') {
				this.pending = {
					scalar: { kind: "string", text: new FlatteningText(), isKey: true, unreported: "", reported: false },
					slot: { discard: true },
				};
				return;
			}
			this.startValue(c, { discard: true });
			return;
		}
		// "colon" (missing colon tolerated) or "value": a value for the current key.
		frame.state = "comma";
		this.startValue(c, { discard: false, key: frame.key });
	}

	private readInArray(frame: Frame, c: string): void {
		if (c === "]") {
			this.closeContainer();
			return;
		}
		if (c === ",") {
			frame.state = "value";
			return;
		}
		frame.state = "comma";
		this.startValue(c, { discard: false, key: (frame.value as JsonValue[]).length });
	}

	private childPath(slot: Slot): JsonPath | undefined {
		if (slot.discard) return undefined;
		const parent = this.stack.at(-1);
		if (!parent) return [];
		if (!parent.path || parent.depth > MAX_REPORTED_DEPTH) return undefined;
		return [...parent.path, slot.key as string | number];
	}

	private startValue(c: string, requested: Slot): void {
		const parent = this.stack.at(-1);
		const slot: Slot = parent?.slot.discard ? { discard: true } : requested;
		const path = this.childPath(slot);
		if (c === "{" || c === "[") {
			const depth = (parent?.depth ?? 0) + 1;
			const frame: Frame = {
				kind: c === "{" ? "object" : "array",
				value: c === "{" ? {} : [],
				state: c === "{" ? "key" : "value",
				slot,
				depth,
			};
			if (path !== undefined) frame.path = path;
			this.stack.push(frame);
			this.openCost++;
			if (slot.discard) return;
			this.dirty = true;
			if (path !== undefined && depth <= MAX_REPORTED_DEPTH)
				this.changes.push({ kind: "set", path, value: c === "{" ? {} : [] });
			return;
		}
		let scalar: Scalar;
		if (c === '"')
			scalar = { kind: "string", text: new FlatteningText(), isKey: false, unreported: "", reported: false };
		else if (isNumberStart(c)) scalar = { kind: "number", text: c };
		else if (isWordChar(c)) scalar = { kind: "literal", text: c };
		else return;
		this.pending = path === undefined ? { scalar, slot } : { scalar, slot, path };
		if (!slot.discard && scalar.kind !== "string") this.dirty = true;
	}

	private finishScalar(pending: PendingScalar): void {
		const scalar = pending.scalar;
		if (scalar.kind === "string" && scalar.isKey) {
			const frame = this.stack.at(-1);
			if (frame?.kind === "object") {
				frame.key = scalar.text.value;
				frame.state = "colon";
			}
			return;
		}
		let value: JsonValue | undefined;
		if (scalar.kind === "string") value = scalar.text.value;
		else if (scalar.kind === "number") value = lenientNumber(scalar.text);
		else value = Object.hasOwn(LITERALS, scalar.text) ? LITERALS[scalar.text] : undefined;
		if (value === undefined) {
			this.dirty = this.dirty || !pending.slot.discard;
			return;
		}
		if (pending.path !== undefined && !pending.slot.discard) {
			if (scalar.kind === "string" && scalar.reported) {
				if (scalar.unreported) this.changes.push({ kind: "append", path: pending.path, text: scalar.unreported });
			} else {
				this.changes.push({ kind: "set", path: pending.path, value });
			}
		}
		this.place(pending.slot, value);
	}

	private place(slot: Slot, value: JsonValue): void {
		if (slot.discard) return;
		const frame = this.stack.at(-1);
		this.dirty = true;
		if (!frame) {
			this.root = value;
			this.rootDone = true;
			return;
		}
		if (frame.kind === "array") (frame.value as JsonValue[]).push(value);
		else {
			const target = frame.value as JsonObject;
			if (!Object.hasOwn(target, slot.key as string)) this.openCost++;
			setMember(target, slot.key as string, value);
			return;
		}
		this.openCost++;
	}

	private closeContainer(): void {
		const frame = this.stack.pop() as Frame;
		const size = frame.kind === "array" ? (frame.value as JsonValue[]).length : Object.keys(frame.value).length;
		this.openCost -= size + 1;
		if (frame.slot.discard) return;
		if (frame.depth === MAX_REPORTED_DEPTH + 1 && frame.path) {
			this.changes.push({ kind: "set", path: frame.path, value: frame.value });
		}
		this.place(frame.slot, frame.value);
	}

	/** An open value string reports its first text with `set`, later growth with `append`. */
	private reportOpenString(): void {
		const pending = this.pending;
		if (!pending || pending.slot.discard || pending.path === undefined) return;
		const scalar = pending.scalar;
		if (scalar.kind !== "string" || scalar.isKey || scalar.unreported === "") return;
		if (scalar.reported) {
			this.changes.push({ kind: "append", path: pending.path, text: scalar.unreported });
		} else {
			this.changes.push({ kind: "set", path: pending.path, value: scalar.text.value });
			scalar.reported = true;
		}
		scalar.unreported = "";
	}

	private pendingPreview(): JsonValue | undefined {
		const pending = this.pending;
		if (!pending || pending.slot.discard) return undefined;
		const scalar = pending.scalar;
		if (scalar.kind === "string") return scalar.isKey ? undefined : scalar.text.value;
		if (scalar.kind === "number") return lenientNumber(scalar.text);
		return literalPreview(scalar.text);
	}

	/** Copies the open path bottom-up, attaching the open child (or pending scalar) to each copy. */
	private build(): JsonValue | undefined {
		if (this.stack.length === 0) return this.rootDone ? this.root : this.pendingPreview();
		let child = this.pendingPreview();
		let childSlot: Slot | undefined = this.pending?.slot;
		for (let level = this.stack.length - 1; level >= 0; level--) {
			const frame = this.stack[level] as Frame;
			let copy: JsonObject | JsonValue[];
			if (frame.kind === "array") {
				copy = (frame.value as JsonValue[]).slice();
				this.work.copies += copy.length + 1;
				if (child !== undefined && childSlot && !childSlot.discard) copy.push(child);
			} else {
				// A key-by-key copy keeps V8's fast object shapes; spread copies degrade when a key is added.
				const source = frame.value as JsonObject;
				const target: JsonObject = {};
				for (const key of Object.keys(source)) setMember(target, key, source[key] as JsonValue);
				copy = target;
				this.work.copies += Object.keys(source).length + 1;
				if (child !== undefined && childSlot && !childSlot.discard) setMember(copy, childSlot.key as string, child);
			}
			child = frame.slot.discard ? undefined : copy;
			childSlot = frame.slot;
		}
		return child;
	}
}
