import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_DIR } from "../config/app-identity.js";

/** Where `scripts/build-export-viewer.mjs` writes the page (script and styles inlined, CSP hashed). */
export const VIEWER_TEMPLATE_PATH = join(PACKAGE_DIR, "dist", "export-viewer", "viewer.html");

const TITLE_SLOT = "{{TAU_EXPORT_TITLE}}";
const DATA_SLOT = "{{TAU_EXPORT_DATA}}";

/** The built page cut at its two slots: the title (HTML text) and the session data (JSON). */
interface ViewerTemplate {
	beforeTitle: string;
	beforeData: string;
	afterData: string;
}

let cached: ViewerTemplate | undefined;

function loadTemplate(): ViewerTemplate {
	if (cached) return cached;
	let html: string;
	try {
		html = readFileSync(VIEWER_TEMPLATE_PATH, "utf8");
	} catch {
		throw new Error(`The HTML export viewer is missing (${VIEWER_TEMPLATE_PATH}); build it with \`npm run build\``);
	}
	const title = html.indexOf(TITLE_SLOT);
	const data = html.indexOf(DATA_SLOT);
	if (title < 0 || data < title) throw new Error(`The HTML export viewer is damaged: ${VIEWER_TEMPLATE_PATH}`);
	cached = {
		beforeTitle: html.slice(0, title),
		beforeData: html.slice(title + TITLE_SLOT.length, data),
		afterData: html.slice(data + DATA_SLOT.length),
	};
	return cached;
}

/**
 * The page with its title and data filled in. `titleHtml` must already be escaped; `dataJson` is
 * embedded in a non-executable `application/json` script, so every `<` is written as `\u003c` and
 * no `</script>` or `<!--` in the session can end or confuse that element.
 */
export function fillViewerTemplate(titleHtml: string, dataJson: string): string {
	const template = loadTemplate();
	return (
		template.beforeTitle + titleHtml + template.beforeData + dataJson.replaceAll("<", "\\u003c") + template.afterData
	);
}
