import { MAX_STORE_TOTAL_CHARS, MAX_STORE_VALUE_CHARS } from "../limits.js";

/**
 * JavaScript evaluated inside QuickJS (file name `codemode-prelude.js`) before the script.
 *
 * It is a function expression called with the single host bridge function and the configuration
 * JSON; the bridge stays in this closure, unreachable from script globals. Before building the
 * globals it freezes every intrinsic so that the serialization and promise machinery used here
 * cannot be altered by the script, turning commonly overridden prototype data properties into
 * accessors whose setter defines an own property on the receiver (so `this.name = "X"` in an Error
 * subclass still works). It returns `{ settle, run, fail }` to the worker.
 */
export const PRELUDE_FILE_NAME = "codemode-prelude.js";

export const PRELUDE_SOURCE = String.raw`(function (bridge, configText) {
"use strict";
const G = globalThis;
const O = Object;
const R = Reflect;
const defineProperty = O.defineProperty;
const freeze = O.freeze;
const getPrototypeOf = O.getPrototypeOf;
const getOwnPropertyDescriptor = O.getOwnPropertyDescriptor;
const ownKeys = R.ownKeys;
const parse = JSON.parse;
const stringify = JSON.stringify;
const ErrorC = Error;
const TypeErrorC = TypeError;
const RangeErrorC = RangeError;
const PromiseC = Promise;
const MapC = Map;
const SetC = Set;
const ProxyC = Proxy;
const StringC = String;
const config = parse(configText);

delete G.SharedArrayBuffer;
delete G.Atomics;

const OVERRIDABLE = ["constructor", "name", "message", "toString", "toLocaleString", "valueOf", "toJSON"];
function hardenIntrinsics() {
	const seen = new SetC();
	const queue = [];
	const visit = (v) => {
		if (v !== null && (typeof v === "object" || typeof v === "function") && !seen.has(v)) {
			seen.add(v);
			queue.push(v);
		}
	};
	for (const key of ownKeys(G)) {
		const d = getOwnPropertyDescriptor(G, key);
		if (d && "value" in d && d.value !== G) visit(d.value);
	}
	visit(getPrototypeOf([][Symbol.iterator]()));
	visit(getPrototypeOf(new MapC().entries()));
	visit(getPrototypeOf(new SetC().values()));
	visit(getPrototypeOf(""[Symbol.iterator]()));
	visit(getPrototypeOf("".matchAll(/x/g)));
	visit(getPrototypeOf(function* () {}));
	visit(getPrototypeOf(async function () {}));
	visit(getPrototypeOf(async function* () {}));
	visit(getPrototypeOf(Int8Array));
	for (let i = 0; i < queue.length; i++) {
		const obj = queue[i];
		visit(getPrototypeOf(obj));
		for (const key of ownKeys(obj)) {
			const d = getOwnPropertyDescriptor(obj, key);
			if (!d) continue;
			if ("value" in d) visit(d.value);
			else {
				visit(d.get);
				visit(d.set);
			}
		}
	}
	for (const obj of queue) {
		for (const key of ownKeys(obj)) {
			const d = getOwnPropertyDescriptor(obj, key);
			if (!d || !("value" in d) || !d.writable || !d.configurable) continue;
			if (obj !== O.prototype && !OVERRIDABLE.includes(key)) continue;
			const value = d.value;
			defineProperty(obj, key, {
				get() {
					return value;
				},
				set(v) {
					if (this === obj) throw new TypeErrorC("Cannot assign to read only property '" + StringC(key) + "'");
					defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
				},
				enumerable: d.enumerable,
				configurable: false,
			});
		}
		freeze(obj);
	}
}
hardenIntrinsics();

let finished = false;
let nextCallId = 0;
const pending = new MapC();
const EXIT = freeze({});

function messageOf(e) {
	try {
		if (e !== null && typeof e === "object" && "message" in e) return StringC(e.message);
		return StringC(e);
	} catch {
		return "unknown error";
	}
}

function describeError(e) {
	if (e !== null && (typeof e === "object" || typeof e === "function")) {
		let name;
		let message;
		let stack;
		try {
			name = e.name === undefined ? undefined : StringC(e.name);
			message = e.message === undefined ? "" : StringC(e.message);
			stack = e.stack;
		} catch {
			message = "unreadable error";
		}
		const head = name ? (message ? name + ": " + message : name) : message;
		const frames =
			typeof stack === "string"
				? stack.split("\n").filter((line) => line.trim() !== "" && !line.includes("codemode-prelude.js")).join("\n")
				: "";
		const out = { message, stack: frames ? head + "\n" + frames : head };
		if (name !== undefined) out.name = name;
		return out;
	}
	let message;
	try {
		message = StringC(e);
	} catch {
		message = "unreadable error";
	}
	return { message, stack: message };
}

function errorText(e) {
	return describeError(e).stack;
}

function hostCall(target, name, arg) {
	if (finished) return new PromiseC(() => {});
	let argsText;
	try {
		argsText = arg === undefined ? undefined : stringify(arg);
	} catch (e) {
		return PromiseC.reject(e);
	}
	const id = ++nextCallId;
	return new PromiseC((resolve, reject) => {
		pending.set(id, { resolve, reject });
		bridge("call", id, target, name, argsText);
	});
}

function settle(id, ok, payload) {
	const p = pending.get(id);
	if (!p) return;
	pending.delete(id);
	if (!ok) {
		p.reject(new ErrorC(payload));
		return;
	}
	if (payload === undefined) {
		p.resolve(undefined);
		return;
	}
	let value;
	try {
		value = parse(payload);
	} catch (e) {
		p.reject(e);
		return;
	}
	p.resolve(value);
}

function normalizeForMatch(s) {
	return s.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function guard(target, label, searchHint) {
	freeze(target);
	return new ProxyC(target, {
		get(t, key, receiver) {
			if (typeof key === "string" && key !== "then" && key !== "toJSON" && !(key in t)) {
				const names = O.keys(t);
				const wanted = normalizeForMatch(key);
				let close = names.filter((n) => normalizeForMatch(n) === wanted);
				if (close.length === 0 && wanted !== "") {
					close = names.filter((n) => {
						const m = normalizeForMatch(n);
						return m !== "" && (m.includes(wanted) || wanted.includes(m));
					});
				}
				let text = label + "." + key + " does not exist.";
				if (close.length > 0) text += " Did you mean: " + close.slice(0, 5).join(", ") + "?";
				else if (names.length <= 20) text += " Available: " + (names.length > 0 ? names.join(", ") : "none") + ".";
				if (searchHint) text += " List tools with ALL_TOOLS or find them with searchTools().";
				throw new TypeErrorC(text);
			}
			return R.get(t, key, receiver);
		},
	});
}

const toolsTarget = {};
const allTools = [];
for (const tool of config.tools) {
	const call = (args) => hostCall("tool", tool.name, args);
	if (!(tool.jsName in toolsTarget)) {
		defineProperty(toolsTarget, tool.jsName, { value: call, enumerable: true });
		allTools.push(freeze({ name: tool.jsName, description: tool.description }));
	}
	if (!(tool.name in toolsTarget)) defineProperty(toolsTarget, tool.name, { value: call, enumerable: false });
}
const tools = guard(toolsTarget, "tools", true);

function emit(kind, a, b) {
	if (!finished) bridge("output", kind, a, b);
}

function toText(v) {
	if (v === null || (typeof v !== "object" && typeof v !== "function")) return StringC(v);
	let s;
	try {
		s = stringify(v);
	} catch (e) {
		throw new TypeErrorC("text() could not serialize the value: " + messageOf(e));
	}
	return s === undefined ? StringC(v) : s;
}

function text(v) {
	emit("text", toText(v), false);
}

function formatConsoleArg(v) {
	if (typeof v === "string") return v;
	if (v instanceof ErrorC) return errorText(v);
	if (typeof v === "number") return StringC(v);
	try {
		return toText(v);
	} catch {
		return StringC(v);
	}
}

function log(...args) {
	emit("text", args.map(formatConsoleArg).join(" "), true);
}
const consoleObject = freeze({ log, info: log, warn: log, error: log, debug: log });

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
function leadingBytes(b64, count) {
	const bytes = [];
	let bits = 0;
	let acc = 0;
	for (let i = 0; i < b64.length && bytes.length < count; i++) {
		const c = b64[i];
		if (c === "=") break;
		acc = (acc << 6) | BASE64_ALPHABET.indexOf(c);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			bytes.push((acc >> bits) & 0xff);
		}
	}
	return bytes;
}
function sniffImage(b) {
	const at = (i, list) => list.every((v, j) => b[i + j] === v);
	if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
	if (at(0, [0xff, 0xd8, 0xff]) && b[3] !== 0xf7) return "image/jpeg";
	if (at(0, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return "image/gif";
	if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50])) return "image/webp";
	return undefined;
}
function imageData(raw) {
	if (typeof raw !== "string") throw new TypeErrorC("image(): image data must be a string");
	let data = raw;
	if (/^data:/i.test(data)) {
		const comma = data.indexOf(",");
		if (comma < 0 || !/;base64$/i.test(data.slice(0, comma))) {
			throw new TypeErrorC("image(): data URLs must be base64 encoded (data:<mime>;base64,...)");
		}
		data = data.slice(comma + 1);
	} else if (/^[a-z][a-z0-9+.-]*:/i.test(data)) {
		throw new TypeErrorC("image(): only data: URLs or base64 data are accepted; fetch remote images with a tool");
	}
	data = data.replace(/\s+/g, "");
	if (data === "") throw new TypeErrorC("image(): image data is empty");
	if (data.length % 4 !== 0 || !BASE64.test(data)) throw new TypeErrorC("image(): image data is not valid base64");
	const mimeType = sniffImage(leadingBytes(data, 12));
	if (!mimeType) throw new TypeErrorC("image(): image bytes are not PNG, JPEG, GIF or WebP");
	return { data, mimeType };
}
function image(x) {
	let source;
	if (typeof x === "string") source = x;
	else if (x !== null && typeof x === "object" && "image_url" in x) {
		const url = x.image_url;
		source = url !== null && typeof url === "object" ? url.url : url;
	} else if (x !== null && typeof x === "object" && "type" in x) {
		if (x.type !== "image") throw new TypeErrorC('image(): content blocks must have type "image"');
		source = x.data;
	} else {
		throw new TypeErrorC("image() expects a data URL, { image_url }, or { type: \"image\", data, mimeType }");
	}
	const img = imageData(source);
	emit("image", img.data, img.mimeType);
}

const snapshot = new MapC();
let storeTotal = 0;
for (const key of O.keys(config.store)) {
	snapshot.set(key, config.store[key]);
	storeTotal += key.length + config.store[key].length;
}
const writes = new MapC();
function store(key, value) {
	if (typeof key !== "string") throw new TypeErrorC("store() key must be a string");
	const previous = snapshot.get(key);
	const previousSize = previous === undefined ? 0 : key.length + previous.length;
	if (value === undefined) {
		snapshot.delete(key);
		storeTotal -= previousSize;
		writes.delete(key);
		writes.set(key, undefined);
		return;
	}
	let json;
	try {
		json = stringify(value);
	} catch (e) {
		throw new TypeErrorC("store() value is not serializable: " + messageOf(e));
	}
	if (json === undefined) throw new TypeErrorC("store() value is not serializable");
	if (json.length > ${MAX_STORE_VALUE_CHARS}) {
		throw new RangeErrorC("store() value is " + json.length + " JSON chars, over the limit of ${MAX_STORE_VALUE_CHARS}; keep small state such as IDs, cursors and summaries");
	}
	const total = storeTotal - previousSize + key.length + json.length;
	if (total > ${MAX_STORE_TOTAL_CHARS}) {
		throw new RangeErrorC("store() would hold " + total + " chars, over the limit of ${MAX_STORE_TOTAL_CHARS}; keep small state such as IDs, cursors and summaries");
	}
	storeTotal = total;
	snapshot.set(key, json);
	writes.delete(key);
	writes.set(key, json);
}
function load(key) {
	if (typeof key !== "string") throw new TypeErrorC("load() key must be a string");
	const json = snapshot.get(key);
	return json === undefined ? undefined : parse(json);
}

function succeed(value) {
	if (finished) return;
	let valueText;
	try {
		valueText = value === undefined ? undefined : stringify(value);
	} catch (e) {
		fail(new TypeErrorC("The returned value could not be serialized: " + messageOf(e)));
		return;
	}
	finished = true;
	const list = [];
	for (const [key, json] of writes) list.push(json === undefined ? [key] : [key, json]);
	bridge("done", true, valueText, stringify(list));
}

function fail(e) {
	if (finished) return;
	finished = true;
	bridge("done", false, stringify(describeError(e)));
}

function exit() {
	succeed(undefined);
	throw EXIT;
}

// btoa/atob as in browsers and Node (binary strings, one character per byte): QuickJS has neither.
function invalidCharacter(message) {
	const e = new ErrorC(message);
	e.name = "InvalidCharacterError";
	return e;
}
function btoa(data) {
	const s = StringC(data);
	let out = "";
	for (let i = 0; i < s.length; i += 3) {
		const a = s.charCodeAt(i);
		const b = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
		const c = i + 2 < s.length ? s.charCodeAt(i + 2) : 0;
		if (a > 255 || b > 255 || c > 255) throw invalidCharacter("btoa: the string contains characters outside of the Latin1 range");
		const n = (a << 16) | (b << 8) | c;
		out += BASE64_ALPHABET[(n >> 18) & 63] + BASE64_ALPHABET[(n >> 12) & 63];
		out += i + 1 < s.length ? BASE64_ALPHABET[(n >> 6) & 63] : "=";
		out += i + 2 < s.length ? BASE64_ALPHABET[n & 63] : "=";
	}
	return out;
}
function atob(data) {
	let s = StringC(data).replace(/[\t\n\f\r ]/g, "");
	if (s.length % 4 === 0) s = s.replace(/==?$/, "");
	if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw invalidCharacter("atob: the string is not valid base64");
	return StringC.fromCharCode(...leadingBytes(s, Infinity));
}

function run(fn) {
	fn(tools, consoleObject).then(succeed, (e) => {
		if (e !== EXIT) fail(e);
	});
}

const builtins = { tools, ALL_TOOLS: freeze(allTools), console: consoleObject, text, image, exit, store, load, btoa, atob };
for (const key of O.keys(builtins)) {
	defineProperty(G, key, { value: builtins[key], writable: false, enumerable: false, configurable: false });
}

const namespaces = new MapC();
for (const g of config.globals) {
	const call = (...args) => hostCall("global", g.name, g.spread ? args : args[0]);
	const dot = g.name.indexOf(".");
	if (dot < 0) {
		defineProperty(G, g.name, { value: call, writable: false, enumerable: false, configurable: false });
		continue;
	}
	const ns = g.name.slice(0, dot);
	if (!namespaces.has(ns)) namespaces.set(ns, {});
	defineProperty(namespaces.get(ns), g.name.slice(dot + 1), { value: call, enumerable: true });
}
for (const [ns, members] of namespaces) {
	defineProperty(G, ns, { value: guard(members, ns, false), writable: false, enumerable: false, configurable: false });
}

return freeze({ settle, run, fail });
})`;
