/**
 * A small YAML reader for resource frontmatter (SKILL.md, prompt templates): block mappings and
 * sequences, plain/quoted scalars, block scalars (`|`, `>`), flow collections and comments.
 * Anchors, aliases, tags and multi-document streams are rejected. Errors are values, never throws.
 */

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

export type YamlResult = { ok: true; value: YamlValue } | { ok: false; error: string };

class YamlError extends Error {
	constructor(message: string, line: number) {
		super(`${message} at line ${line + 1}`);
	}
}

interface Line {
	indent: number;
	/** Text after the indentation. */
	text: string;
	number: number;
}

export function parseYaml(source: string): YamlResult {
	try {
		return { ok: true, value: new YamlReader(source).readDocument() };
	} catch (error) {
		// Anything else (e.g. a stack overflow on absurd nesting) is still bad input, not a crash.
		return { ok: false, error: error instanceof YamlError ? error.message : `invalid YAML: ${String(error)}` };
	}
}

const KEY_PATTERN = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"[\]{},&*!|>%@`-][^#]*?|-[^\s#][^#]*?)[ \t]*:(?=\s|$)/;

class YamlReader {
	private readonly lines: Line[];
	private index = 0;

	constructor(source: string) {
		this.lines = source.split("\n").map((raw, number) => {
			const match = /^( *)(.*)$/.exec(raw.replace(/\r$/, "")) as RegExpExecArray;
			const text = match[2] ?? "";
			if (text.startsWith("\t")) throw new YamlError("tabs are not allowed for indentation", number);
			return { indent: (match[1] ?? "").length, text, number };
		});
	}

	readDocument(): YamlValue {
		const first = this.peek();
		if (!first) return null;
		if (/^(---|\.\.\.)(\s|$)/.test(first.text))
			throw new YamlError("multiple documents are not supported", first.number);
		const value = this.readNode(first.indent, first.indent);
		const rest = this.peek();
		if (rest) throw new YamlError("unexpected content", rest.number);
		return value;
	}

	/** The next line that carries content (blank and comment-only lines skipped). */
	private peek(): Line | undefined {
		while (this.index < this.lines.length) {
			const line = this.lines[this.index] as Line;
			if (line.text === "" || line.text.startsWith("#")) this.index++;
			else return line;
		}
		return undefined;
	}

	/** Reads the node that starts on the next content line, indented at least `minIndent`. */
	private readNode(minIndent: number, parentIndent: number): YamlValue {
		const line = this.peek();
		if (!line || line.indent < minIndent) return null;
		if (isSequenceItem(line.text)) return this.readSequence(line.indent);
		if (KEY_PATTERN.test(line.text)) return this.readMapping(line.indent);
		this.index++;
		return this.readInlineValue(line.text, line.number, parentIndent);
	}

	private readSequence(indent: number): YamlValue[] {
		const items: YamlValue[] = [];
		for (let line = this.peek(); line && line.indent === indent && isSequenceItem(line.text); line = this.peek()) {
			const rest = line.text.slice(1).replace(/^ +/, "");
			const contentIndent = indent + (line.text.length - rest.length);
			if (rest === "" || rest.startsWith("#")) {
				this.index++;
				items.push(this.readNode(indent + 1, indent));
			} else if (isSequenceItem(rest) || KEY_PATTERN.test(rest)) {
				// A compact nested node: re-read this line as if the item text started its own line.
				this.lines[this.index] = { indent: contentIndent, text: rest, number: line.number };
				items.push(this.readNode(contentIndent, indent));
			} else {
				this.index++;
				items.push(this.readInlineValue(rest, line.number, indent));
			}
		}
		this.checkDedent(indent);
		return items;
	}

	private readMapping(indent: number): { [key: string]: YamlValue } {
		const map: { [key: string]: YamlValue } = {};
		for (let line = this.peek(); line && line.indent === indent; line = this.peek()) {
			const match = KEY_PATTERN.exec(line.text);
			if (!match) throw new YamlError("expected a mapping key", line.number);
			const key = String(parseKey(match[1] as string, line.number));
			if (Object.hasOwn(map, key)) throw new YamlError(`duplicate key "${key}"`, line.number);
			const rest = line.text.slice(match[0].length).replace(/^[ \t]+/, "");
			this.index++;
			if (rest === "" || rest.startsWith("#")) {
				const next = this.peek();
				// A sequence may sit at the key's own indentation (`key:\n- a`).
				if (next && next.indent === indent && isSequenceItem(next.text)) map[key] = this.readSequence(indent);
				else map[key] = this.readNode(indent + 1, indent);
			} else {
				map[key] = this.readInlineValue(rest, line.number, indent);
			}
		}
		this.checkDedent(indent);
		return map;
	}

	/** After a block collection ends, the next line must belong to an enclosing level. */
	private checkDedent(indent: number): void {
		const next = this.peek();
		if (next && next.indent > indent) throw new YamlError("bad indentation", next.number);
	}

	/** A value written after `key:` or `- `; continuation lines must be indented beyond `parentIndent`. */
	private readInlineValue(text: string, lineNumber: number, parentIndent: number): YamlValue {
		const first = text[0];
		if (first === "|" || first === ">") return this.readBlockScalar(text, lineNumber, parentIndent);
		if (first === '"' || first === "'") return this.readQuoted(text, lineNumber, parentIndent);
		if (first === "[" || first === "{") return this.readFlow(text, lineNumber, parentIndent);
		if (first === "&" || first === "*" || first === "!") {
			throw new YamlError("anchors, aliases and tags are not supported", lineNumber);
		}
		if (first === "@" || first === "`" || first === "%") {
			throw new YamlError(`a plain value cannot start with "${first}"`, lineNumber);
		}
		const parts = [stripComment(text)];
		for (let line = this.peek(); line && line.indent > parentIndent; line = this.peek()) {
			if (/^#/.test(line.text)) break;
			parts.push(stripComment(line.text));
			this.index++;
		}
		const joined = parts.join(" ");
		if (/:(\s|$)/.test(joined)) throw new YamlError("nested mappings are not allowed in a plain value", lineNumber);
		return resolvePlainScalar(joined);
	}

	private readBlockScalar(header: string, lineNumber: number, parentIndent: number): string {
		const match = /^([|>])([-+]?)([1-9]?)([-+]?)\s*(#.*)?$/.exec(header);
		if (!match) throw new YamlError("invalid block scalar header", lineNumber);
		const folded = match[1] === ">";
		const chomp = match[2] || match[4];
		const explicit = match[3] ? parentIndent + Number(match[3]) : undefined;
		const raw: string[] = [];
		let contentIndent = explicit;
		while (this.index < this.lines.length) {
			const line = this.lines[this.index] as Line;
			if (line.text === "") {
				raw.push("");
				this.index++;
				continue;
			}
			if (contentIndent === undefined) {
				if (line.indent <= parentIndent) break;
				contentIndent = line.indent;
			}
			if (line.indent < contentIndent) break;
			raw.push(`${" ".repeat(line.indent - contentIndent)}${line.text}`);
			this.index++;
		}
		let trailing = 0;
		while (raw.length > 0 && raw[raw.length - 1] === "") {
			raw.pop();
			trailing++;
		}
		if (raw.length === 0) return "";
		let body = folded ? foldLines(raw) : raw.join("\n");
		if (chomp === "+") body += "\n".repeat(trailing + 1);
		else if (chomp !== "-") body += "\n";
		return body;
	}

	private readQuoted(text: string, lineNumber: number, parentIndent: number): string {
		const quote = text[0] as string;
		let buffer = text;
		for (;;) {
			const end = findClosingQuote(buffer, quote);
			if (end !== -1) {
				const tail = buffer.slice(end + 1).trim();
				if (tail !== "" && !tail.startsWith("#")) {
					throw new YamlError("unexpected text after a quoted value", lineNumber);
				}
				return quote === '"'
					? unescapeDouble(buffer.slice(1, end), lineNumber)
					: unescapeSingle(buffer.slice(1, end));
			}
			const next = this.lines[this.index];
			if (!next || (next.text !== "" && next.indent <= parentIndent)) {
				throw new YamlError("unterminated quoted string", lineNumber);
			}
			buffer += `\n${next.text}`;
			this.index++;
		}
	}

	private readFlow(text: string, lineNumber: number, parentIndent: number): YamlValue {
		let buffer = stripComment(text);
		for (;;) {
			const parser = new FlowParser(buffer, lineNumber);
			const value = parser.tryParse();
			if (value !== undefined) return value;
			const next = this.lines[this.index];
			if (!next || (next.text !== "" && next.indent <= parentIndent)) {
				throw new YamlError("unterminated flow collection", lineNumber);
			}
			buffer += ` ${stripComment(next.text)}`;
			this.index++;
		}
	}
}

function isSequenceItem(text: string): boolean {
	return text === "-" || text.startsWith("- ");
}

function parseKey(raw: string, lineNumber: number): YamlValue {
	if (raw.startsWith('"')) return unescapeDouble(raw.slice(1, -1), lineNumber);
	if (raw.startsWith("'")) return unescapeSingle(raw.slice(1, -1));
	return raw;
}

/** Removes a ` #` comment from a plain value (a `#` inside a word is text). */
function stripComment(text: string): string {
	const match = /(^|[ \t])#/.exec(text);
	return (match ? text.slice(0, match.index) : text).trim();
}

function findClosingQuote(text: string, quote: string): number {
	for (let i = 1; i < text.length; i++) {
		const char = text[i];
		if (quote === '"' && char === "\\") i++;
		else if (char === quote) {
			if (quote === "'" && text[i + 1] === "'") i++;
			else return i;
		}
	}
	return -1;
}

/** Folds a multi-line quoted value: a line break becomes a space, an empty line a newline. */
function foldQuotedLines(text: string): string {
	return text.replace(/[ \t]*\n[ \t]*((?:\n[ \t]*)*)/g, (_match, blanks: string) =>
		blanks ? "\n".repeat(blanks.split("\n").length - 1) : " ",
	);
}

function unescapeSingle(body: string): string {
	return foldQuotedLines(body).replace(/''/g, "'");
}

const ESCAPES: Record<string, string> = {
	"0": "\0",
	a: "\x07",
	b: "\b",
	t: "\t",
	"\t": "\t",
	n: "\n",
	v: "\v",
	f: "\f",
	r: "\r",
	e: "\x1b",
	" ": " ",
	'"': '"',
	"/": "/",
	"\\": "\\",
	N: "\u0085",
	_: "\u00a0",
	L: "\u2028",
	P: "\u2029",
};

function unescapeDouble(body: string, lineNumber: number): string {
	const folded = foldQuotedLines(body.replace(/\\\n[ \t]*/g, ""));
	return folded.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_match, code: string) => {
		if (code.length > 1) {
			const point = Number.parseInt(code.slice(1), 16);
			if (point > 0x10ffff) throw new YamlError(`invalid escape "\\${code}"`, lineNumber);
			return String.fromCodePoint(point);
		}
		const replacement = ESCAPES[code];
		if (replacement === undefined) throw new YamlError(`invalid escape "\\${code}"`, lineNumber);
		return replacement;
	});
}

function foldLines(lines: string[]): string {
	let out = "";
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i] as string;
		if (i === 0) {
			out = line;
			continue;
		}
		const previous = lines[i - 1] as string;
		const moreIndented = line.startsWith(" ") || previous.startsWith(" ");
		if (line === "") out += "\n";
		else if (previous === "" || moreIndented) out += (previous === "" && !moreIndented ? "" : "\n") + line;
		else out += ` ${line}`;
	}
	return out;
}

function resolvePlainScalar(text: string): YamlValue {
	if (text === "" || text === "~" || /^(null|Null|NULL)$/.test(text)) return null;
	if (/^(true|True|TRUE)$/.test(text)) return true;
	if (/^(false|False|FALSE)$/.test(text)) return false;
	if (/^[-+]?[0-9]+$/.test(text)) return Number.parseInt(text, 10);
	if (/^0x[0-9a-fA-F]+$/.test(text)) return Number.parseInt(text.slice(2), 16);
	if (/^0o[0-7]+$/.test(text)) return Number.parseInt(text.slice(2), 8);
	if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(text)) return Number.parseFloat(text);
	if (/^[-+]?\.(inf|Inf|INF)$/.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
	if (/^\.(nan|NaN|NAN)$/.test(text)) return Number.NaN;
	return text;
}

/** Parses `[...]` / `{...}` text; `tryParse` returns undefined while brackets are still open. */
class FlowParser {
	private pos = 0;

	constructor(
		private readonly text: string,
		private readonly lineNumber: number,
	) {}

	tryParse(): YamlValue | undefined {
		if (!this.balanced()) return undefined;
		const value = this.value();
		this.skipSpace();
		if (this.pos < this.text.length) this.fail("unexpected text after a flow collection");
		return value;
	}

	private balanced(): boolean {
		let depth = 0;
		for (let i = 0; i < this.text.length; i++) {
			const char = this.text[i] as string;
			if (char === '"' || char === "'") {
				const end = findClosingQuote(this.text.slice(i), char);
				if (end === -1) return false;
				i += end;
			} else if (char === "[" || char === "{") depth++;
			else if (char === "]" || char === "}") depth--;
		}
		return depth <= 0;
	}

	private fail(message: string): never {
		throw new YamlError(message, this.lineNumber);
	}

	private skipSpace(): void {
		while (this.pos < this.text.length && /\s/.test(this.text[this.pos] as string)) this.pos++;
	}

	private value(): YamlValue {
		this.skipSpace();
		const char = this.text[this.pos];
		if (char === "[") return this.sequence();
		if (char === "{") return this.mapping();
		if (char === '"' || char === "'") {
			const end = findClosingQuote(this.text.slice(this.pos), char);
			const body = this.text.slice(this.pos + 1, this.pos + end);
			this.pos += end + 1;
			return char === '"' ? unescapeDouble(body, this.lineNumber) : unescapeSingle(body);
		}
		const match = /^[^,[\]{}]*/.exec(this.text.slice(this.pos)) as RegExpExecArray;
		let plain = match[0];
		const colon = /:(\s|$)/.exec(plain);
		if (colon) plain = plain.slice(0, colon.index);
		this.pos += plain.length;
		const trimmed = plain.trim();
		if (/^[&*!@`%]/.test(trimmed)) this.fail(`unsupported flow value "${trimmed}"`);
		return resolvePlainScalar(trimmed);
	}

	private sequence(): YamlValue[] {
		this.pos++;
		const items: YamlValue[] = [];
		for (;;) {
			this.skipSpace();
			if (this.text[this.pos] === "]") {
				this.pos++;
				return items;
			}
			items.push(this.value());
			this.skipSpace();
			const next = this.text[this.pos];
			if (next === ",") this.pos++;
			else if (next !== "]") this.fail("expected , or ] in a flow sequence");
		}
	}

	private mapping(): { [key: string]: YamlValue } {
		this.pos++;
		const map: { [key: string]: YamlValue } = {};
		for (;;) {
			this.skipSpace();
			if (this.text[this.pos] === "}") {
				this.pos++;
				return map;
			}
			const key = String(this.value());
			this.skipSpace();
			let value: YamlValue = null;
			if (this.text[this.pos] === ":") {
				this.pos++;
				value = this.value();
			}
			if (Object.hasOwn(map, key)) this.fail(`duplicate key "${key}"`);
			map[key] = value;
			this.skipSpace();
			const next = this.text[this.pos];
			if (next === ",") this.pos++;
			else if (next !== "}") this.fail("expected , or } in a flow mapping");
		}
	}
}
