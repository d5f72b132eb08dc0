/** Whether a scope pattern is a glob (`*`, `?` or `[`). */
export function isGlobPattern(pattern: string): boolean {
	return /[*?[]/.test(pattern);
}

/** Compiles a case-insensitive model pattern glob (`*`, `?`, `[...]`, `[!...]`; `*` crosses `/`) matching a whole id. */
export function modelPatternToRegExp(glob: string): RegExp {
	let source = "";
	for (let i = 0; i < glob.length; i++) {
		const char = glob[i]!;
		if (char === "*") source += ".*";
		else if (char === "?") source += ".";
		else if (char === "[") {
			const close = glob.indexOf("]", i + 2);
			if (close < 0) {
				source += "\\[";
				continue;
			}
			let body = glob.slice(i + 1, close);
			if (body.startsWith("!")) body = `^${body.slice(1)}`;
			source += `[${body.replace(/\\/g, "\\\\")}]`;
			i = close;
		} else source += char.replace(/[.+^${}()|\\/\]]/g, "\\$&");
	}
	return new RegExp(`^${source}$`, "i");
}
