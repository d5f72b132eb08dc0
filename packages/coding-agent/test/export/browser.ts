import { pathToFileURL } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";

/** What a page did that a self-contained, inert export must never do. */
export interface PageTrouble {
	consoleErrors: string[];
	/** Requests for anything but the export file itself (all are refused). */
	requests: string[];
	dialogs: string[];
}

export interface OpenedPage {
	page: Page;
	context: BrowserContext;
	trouble: PageTrouble;
	/** CSP violations the page reported (collected by an init script outside the page's own policy). */
	violations(): Promise<string[]>;
}

/**
 * Opens an export from file:// (optionally at `hash`) in a fresh context that refuses every
 * request except the file itself and records console errors, page errors and dialogs.
 */
export async function openExport(
	browser: Browser,
	file: string,
	options: { hash?: string; viewport?: { width: number; height: number }; colorScheme?: "light" | "dark" } = {},
): Promise<OpenedPage> {
	const context = await browser.newContext({
		viewport: options.viewport ?? { width: 1280, height: 900 },
		colorScheme: options.colorScheme ?? "light",
		serviceWorkers: "block",
	});
	// Fail a missing element well inside the test's own timeout, with Playwright's account of it.
	context.setDefaultTimeout(8_000);
	const url = pathToFileURL(file).href;
	const trouble: PageTrouble = { consoleErrors: [], requests: [], dialogs: [] };
	await context.route("**/*", (route) => {
		const requested = route.request().url();
		if (requested.split("#")[0] === url) return route.continue();
		trouble.requests.push(requested);
		return route.abort();
	});
	await context.addInitScript(() => {
		const seen: string[] = [];
		(window as unknown as { __violations: string[] }).__violations = seen;
		document.addEventListener("securitypolicyviolation", (event) => {
			seen.push(`${event.violatedDirective} ${event.blockedURI}`);
		});
	});
	const page = await context.newPage();
	page.on("console", (message) => {
		if (message.type() === "error") trouble.consoleErrors.push(message.text());
	});
	page.on("pageerror", (error) => trouble.consoleErrors.push(`page error: ${error.message}`));
	page.on("dialog", (dialog) => {
		trouble.dialogs.push(dialog.message());
		void dialog.dismiss();
	});
	page.on("request", (request) => {
		const requested = request.url();
		if (!requested.startsWith("data:") && requested.split("#")[0] !== url && !trouble.requests.includes(requested)) {
			trouble.requests.push(requested);
		}
	});
	await page.goto(`${url}${options.hash ?? ""}`);
	await page.waitForSelector("body.ready");
	return {
		page,
		context,
		trouble,
		violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
	};
}
