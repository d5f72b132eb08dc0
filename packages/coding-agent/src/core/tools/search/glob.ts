/** Escapes a character that would be special in a regular expression. */
function escapeRegex(char: string): string {
	return /[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char;
}

/**
 * Translates a glob (gitignore/fd/ripgrep flavour: `*`, `?`, `**`, `[...]`, `{a,b}`) into a
 * regular-expression source matching a whole `/`-separated path. `*` never crosses `/`.
 */
export function globToRegexSource(glob: string): string {
	let source = "";
	let braceDepth = 0;
	for (let i = 0; i < glob.length; i++) {
		const char = glob[i] ?? "";
		if (char === "*") {
			if (glob[i + 1] === "*") {
				const atSegmentStart = i === 0 || glob[i - 1] === "/";
				if (atSegmentStart && glob[i + 2] === "/") {
					source += "(?:.*/)?";
					i += 2;
				} else if (atSegmentStart && i + 2 === glob.length) {
					source += ".*";
					i += 1;
				} else {
					source += "[^/]*";
					i += 1;
				}
			} else source += "[^/]*";
		} else if (char === "?") source += "[^/]";
		else if (char === "[") {
			const close = glob.indexOf("]", i + 2);
			if (close === -1) source += "\\[";
			else {
				let body = glob.slice(i + 1, close);
				if (body.startsWith("!")) body = `^${body.slice(1)}`;
				source += `[${body.replace(/\\/g, "\\\\")}]`;
				i = close;
			}
		} else if (char === "{") {
			braceDepth++;
			source += "(?:";
		} else if (char === "}" && braceDepth > 0) {
			braceDepth--;
			source += ")";
		} else if (char === "," && braceDepth > 0) source += "|";
		else if (char === "\\" && i + 1 < glob.length) {
			source += escapeRegex(glob[i + 1] ?? "");
			i++;
		} else source += escapeRegex(char);
	}
	return source;
}

/** Compiles a path glob (`*` within a segment, `**` across, `{a,b}`, `[...]`) matching a whole path. */
export function pathGlobToRegExp(glob: string, ignoreCase = false): RegExp {
	return new RegExp(`^${globToRegexSource(glob)}$`, ignoreCase ? "i" : "");
}

/** Escapes glob metacharacters so a literal path can prefix a glob. */
export function escapeGlob(path: string): string {
	return path.replace(/[*?[\]{}\\]/g, "\\$&");
}

/**
 * A path filter the way ripgrep's `--glob` and fd's `--glob` treat patterns: without `/` the
 * pattern matches the file name at any depth, with `/` the path relative to the search root.
 */
export function createPathGlob(pattern: string, ignoreCase = false): (relativePath: string) => boolean {
	const trimmed = pattern.replace(/^(\.\/)+/, "");
	const regex = pathGlobToRegExp(trimmed.replace(/^\//, ""), ignoreCase);
	if (!trimmed.includes("/")) return (path) => regex.test(path.slice(path.lastIndexOf("/") + 1));
	return (path) => regex.test(path);
}
