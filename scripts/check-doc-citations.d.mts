/** Broken citations of repository documents under `root`, as `file:line: problem`; see check-doc-citations.mjs. */
export function findBrokenCitations(root: string): string[];
/** The comment and test titles of one source line: the only text whose citations are checked. */
export function proseOf(line: string): string;
/** The anchors of a Markdown page's headings, as GitHub forms them. */
export function pageAnchors(markdown: string): Set<string>;
/** GitHub's anchor for one heading. */
export function headingSlug(heading: string): string;
/** Relative links of the repository's Markdown pages whose file or section does not exist. */
export function findBrokenLinks(root: string): string[];
