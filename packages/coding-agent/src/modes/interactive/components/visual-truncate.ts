import { Text } from "@tau/tui";

/** The screen lines left after truncating text to a number of terminal lines, and how many were cut. */
export interface VisualTruncateResult {
	/** The screen lines shown. */
	visualLines: readonly string[];
	/** How many screen lines were left out. */
	skippedCount: number;
}

/**
 * At most `maxVisualLines` screen lines of `text` wrapped at `width` (with `paddingX` columns each
 * side): the last ones (default) or the first ones. Counting screen lines, not text lines, keeps a
 * single very long line from filling the screen.
 */
export function truncateToVisualLines(
	text: string,
	maxVisualLines: number,
	width: number,
	paddingX = 0,
	keep: "start" | "end" = "end",
): VisualTruncateResult {
	if (!text) return { visualLines: [], skippedCount: 0 };
	const lines = new Text(text, paddingX, 0).render(width);
	if (lines.length <= maxVisualLines) return { visualLines: lines, skippedCount: 0 };
	return {
		visualLines: keep === "start" ? lines.slice(0, maxVisualLines) : lines.slice(-maxVisualLines),
		skippedCount: lines.length - maxVisualLines,
	};
}
