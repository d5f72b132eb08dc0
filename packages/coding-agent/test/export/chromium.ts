// The system Chromium for the export viewer's browser tests and benchmark (no DOM types here: the
// benchmark project imports it).
import { execFileSync } from "node:child_process";
import type { Browser } from "playwright-core";

/** The system Chromium (Debian's `chromium`; scripts/install-test-tools.sh installs it), or undefined. */
export function findChromium(): string | undefined {
	for (const name of ["chromium", "chromium-browser"]) {
		try {
			const path = execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
			if (path) return path;
		} catch {
			// not installed under this name
		}
	}
	return undefined;
}

export const CHROMIUM = findChromium();
export const NO_CHROMIUM_REASON = "Chromium is not installed (apt-get install chromium; scripts/install-test-tools.sh)";

/** A headless Chromium (Playwright gives each launch a fresh temporary profile) that never reaches the network on its own. */
export async function launchChromium(): Promise<Browser> {
	const { chromium } = await import("playwright-core");
	return chromium.launch({
		executablePath: CHROMIUM!,
		headless: true,
		args: [
			"--headless",
			"--no-sandbox",
			"--disable-gpu",
			"--disable-background-networking",
			"--disable-component-update",
			"--no-first-run",
			"--disable-sync",
		],
	});
}
