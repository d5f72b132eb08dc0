/** `countNoun(1, "entry", "entries")` is "1 entry", `countNoun(3, "tool")` is "3 tools". */
export function countNoun(count: number, singular: string, plural = `${singular}s`): string {
	return `${count} ${count === 1 ? singular : plural}`;
}
