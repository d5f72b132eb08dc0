import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { type ClipboardContent, systemClipboardReader } from "./system-clipboard.js";

/** pi-tui's clipboard access: undefined means unavailable, null means the clipboard holds no such thing. */
export interface NativeClipboard {
	getText(): Promise<string | null | undefined>;
	getImage(): Promise<Uint8Array | null | undefined>;
	/** Paths of files copied in a file manager. */
	getFilePaths?(): Promise<string[] | null | undefined>;
	setText?(text: string): Promise<void>;
}

/** The command-line tools each platform's reader runs (docs/tui.md "Clipboard"). */
function requiredTools(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] | undefined {
	if (platform === "darwin") return ["osascript", "pbpaste"];
	if (platform === "win32") return ["powershell"];
	if (platform !== "linux") return undefined;
	if (env.WAYLAND_DISPLAY) return ["wl-paste"];
	if (env.DISPLAY) return ["xclip"];
	if (env.WSL_DISTRO_NAME || env.WSL_INTEROP) return ["powershell.exe"];
	return undefined;
}

function onPath(tool: string, env: NodeJS.ProcessEnv): boolean {
	const extensions = process.platform === "win32" ? ["", ".exe", ".cmd"] : [""];
	return (env.PATH ?? "")
		.split(delimiter)
		.some((dir) => dir !== "" && extensions.some((extension) => existsSync(join(dir, tool + extension))));
}

/**
 * Clipboard reads through the platform's command-line tools, or undefined when there is no display to
 * read from or the tools are not installed. Nothing runs until a read is requested; every read takes a
 * fresh look at the clipboard.
 */
export function getNativeClipboard(
	platform: NodeJS.Platform = process.platform,
	env: NodeJS.ProcessEnv = process.env,
): NativeClipboard | undefined {
	const tools = requiredTools(platform, env);
	if (!tools?.every((tool) => onPath(tool, env))) return undefined;
	const read = systemClipboardReader(platform, env);
	const pick = async <T>(select: (content: ClipboardContent) => T | undefined): Promise<T | null> =>
		select(await read()) ?? null;
	return {
		getText: () => pick((content) => content.text),
		getImage: () => pick((content) => (content.image ? new Uint8Array(content.image.data) : undefined)),
		getFilePaths: () => pick((content) => content.files),
	};
}
