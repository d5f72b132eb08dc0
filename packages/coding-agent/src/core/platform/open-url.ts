import { spawn } from "node:child_process";

/**
 * Hands a URL to the platform's opener: clicked OSC 8 links (docs/design/interactive.md#layout) and sign-in pages.
 * Only web and file links: a link in model output must not be able to launch arbitrary URL handlers.
 * Best effort: callers always show the URL too.
 */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): void {
	if (!/^(https?|file):/i.test(url)) return;
	const [command, args]: [string, string[]] =
		platform === "darwin"
			? ["open", [url]]
			: platform === "win32"
				? ["rundll32", ["url.dll,FileProtocolHandler", url]]
				: ["xdg-open", [url]];
	try {
		const child = spawn(command, args, { detached: true, stdio: "ignore" });
		// A missing opener is not worth interrupting the session for.
		child.on("error", () => {});
		child.unref();
	} catch {
		// spawn throws synchronously only for invalid arguments; nothing to open then.
	}
}
