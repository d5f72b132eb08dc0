import { join } from "node:path";

/**
 * Every file and folder the `docs` section of the system prompt names, as absolute paths: the
 * README, docs and examples folders, and each `docs/<topic>.md` (which means a file in that folder).
 */
export function documentationPaths(section: string): string[] {
	const named = [...section.matchAll(/^- (?:README|docs|examples): (.+)$/gm)].map((match) => match[1]!);
	const docs = /^- docs: (.+)$/m.exec(section)?.[1];
	if (!docs) throw new Error("the docs section names no docs folder");
	const topics = [...section.matchAll(/-> docs\/([\w./-]+\.md)/g)].map((match) => join(docs, match[1]!));
	return [...named, ...topics];
}
