import type { Theme } from "../../../core/resources/index.js";
import { commonAffixLengths } from "../../../core/tools/edit/diff-strings.js";
import { activeTheme } from "../theme/active-theme.js";

/** Options of `renderDiff` (accepted for compatibility; they do not change the output). */
export interface RenderDiffOptions {
	/** Accepted for compatibility; the rendering does not depend on it. */
	filePath?: string;
}

/** `-old` / `+new` content with the differing middle (after the common prefix and suffix) inverted. */
function highlightChange(theme: Theme, removed: string, added: string): [string, string] {
	const [oldBody, newBody] = [removed.slice(1), added.slice(1)];
	const { prefix, suffix } = commonAffixLengths(oldBody, newBody);
	const mark = (body: string, sign: string) => {
		const middle = body.slice(prefix, body.length - suffix);
		return `${sign}${body.slice(0, prefix)}${middle ? theme.inverse(middle) : ""}${body.slice(body.length - suffix)}`;
	};
	return [mark(oldBody, removed[0] as string), mark(newBody, added[0] as string)];
}

/**
 * Colours an edit diff (the edit tool's display diff): added lines `toolDiffAdded`, removed lines
 * `toolDiffRemoved`, the rest `toolDiffContext`; a single removed line followed by a single added line
 * gets its changed part inverted.
 */
export function renderDiff(diffText: string, _options: RenderDiffOptions = {}, theme: Theme = activeTheme()): string {
	const lines = diffText.split("\n");
	const out: string[] = [];
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i] as string;
		const next = lines[i + 1];
		const pair =
			line.startsWith("-") &&
			next?.startsWith("+") &&
			!lines[i - 1]?.startsWith("-") &&
			!lines[i + 2]?.startsWith("+");
		if (pair && next !== undefined) {
			const [removed, added] = highlightChange(theme, line, next);
			out.push(theme.fg("toolDiffRemoved", removed), theme.fg("toolDiffAdded", added));
			i++;
		} else {
			const token = line.startsWith("+")
				? "toolDiffAdded"
				: line.startsWith("-")
					? "toolDiffRemoved"
					: "toolDiffContext";
			out.push(theme.fg(token, line));
		}
	}
	return out.join("\n");
}
