/**
 * Shell-like splitting of `/template` arguments: quotes open only at the start of an argument,
 * `\"` inside double quotes (and `\'` inside single quotes) yields the quote, other backslashes
 * stay literal, and an unclosed quote is read as a literal character.
 */
export function parseCommandArgs(text: string): string[] {
	const args: string[] = [];
	let current = "";
	let inArgument = false;
	let i = 0;
	while (i < text.length) {
		const char = text[i] as string;
		if (/\s/.test(char)) {
			if (inArgument) args.push(current);
			current = "";
			inArgument = false;
			i++;
			continue;
		}
		if ((char === '"' || char === "'") && !inArgument) {
			const quoted = readQuoted(text, i);
			if (quoted) {
				current = quoted.value;
				inArgument = true;
				i = quoted.end;
				// Text may continue after the closing quote within the same argument.
				continue;
			}
		}
		current += char;
		inArgument = true;
		i++;
	}
	if (inArgument) args.push(current);
	return args;
}

/** The quoted section starting at `start`, or undefined when the quote is never closed. */
function readQuoted(text: string, start: number): { value: string; end: number } | undefined {
	const quote = text[start] as string;
	let value = "";
	for (let i = start + 1; i < text.length; i++) {
		const char = text[i] as string;
		if (char === "\\" && text[i + 1] === quote) {
			value += quote;
			i++;
		} else if (char === quote) {
			return { value, end: i + 1 };
		} else {
			value += char;
		}
	}
	return undefined;
}

const SUBSTITUTION = /\$\{(@|ARGUMENTS|[0-9]+):-([^}]*)\}|\$\{@:([0-9]+)(?::([0-9]+))?\}|\$(ARGUMENTS\b|@|[0-9]+)/g;

/**
 * Replaces `$1`, `$@`, `$ARGUMENTS`, `${N:-default}`, `${@:-default}`, `${@:N}` and `${@:N:L}` in
 * one pass; substituted values are never scanned again.
 */
export function substituteArgs(content: string, args: readonly string[]): string {
	const all = args.join(" ");
	return content.replace(
		SUBSTITUTION,
		(_match, defaultName?: string, fallback?: string, sliceStart?: string, sliceLength?: string, simple?: string) => {
			if (defaultName !== undefined) {
				const value = defaultName === "@" || defaultName === "ARGUMENTS" ? all : positional(args, defaultName);
				return value === "" ? (fallback ?? "") : value;
			}
			if (sliceStart !== undefined) {
				const from = Math.max(Number(sliceStart), 1) - 1;
				const to = sliceLength === undefined ? undefined : from + Number(sliceLength);
				return args.slice(from, to).join(" ");
			}
			if (simple === "@" || simple === "ARGUMENTS") return all;
			return positional(args, simple as string);
		},
	);
}

function positional(args: readonly string[], index: string): string {
	const n = Number(index);
	return n >= 1 ? (args[n - 1] ?? "") : "";
}
