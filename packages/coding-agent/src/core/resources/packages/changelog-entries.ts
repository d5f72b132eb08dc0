/** A version's first three numeric components. */
export type ChangelogVersion = [number, number, number];

/** One `## ` section of a changelog whose heading names a version. */
export interface ChangelogEntry {
	version: ChangelogVersion;
	/** The heading line followed by the section's body lines. */
	lines: string[];
}

/** The first three numeric components (`v1.2.3-beta` -> 1.2.3); prerelease suffixes are ignored. */
export function parseChangelogVersion(text: string): ChangelogVersion | undefined {
	const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
	return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

export function isNewerVersion(a: ChangelogVersion, b: ChangelogVersion): boolean {
	for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) > (b[i] as number);
	return false;
}

/**
 * The `## ` entries whose heading names a version (`[1.2.3]` or `1.2.3`), in file order. Other
 * `## ` headings (`## Unreleased`) end the current entry and are dropped with their body.
 */
export function changelogEntries(text: string): ChangelogEntry[] {
	const entries: ChangelogEntry[] = [];
	let current: ChangelogEntry | undefined;
	for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
		if (line.startsWith("## ")) {
			const match = /\[?v?(\d+\.\d+\.\d+)/.exec(line);
			const version = match ? parseChangelogVersion(match[1] as string) : undefined;
			current = version ? { version, lines: [line] } : undefined;
			if (current) entries.push(current);
		} else current?.lines.push(line);
	}
	return entries;
}

/** An entry as Markdown, without the blank lines that separated it from the next heading. */
export function entryMarkdown(entry: ChangelogEntry): string {
	return entry.lines.join("\n").trim();
}
