import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

/** What the clipboard holds: copied files first, then an image, then text. */
export interface ClipboardContent {
	/** Absolute paths of copied files. */
	files?: string[];
	image?: { data: Buffer; mimeType: string };
	text?: string;
}

/** Reads the system clipboard (text or image); replaceable for tests and other platforms. */
export type ClipboardReader = () => Promise<ClipboardContent>;

const MAX_CLIPBOARD_BYTES = 64 * 1024 * 1024;

/** Runs a clipboard helper; rejects with a message naming it when it is missing or fails. */
function run(command: string, args: string[]): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		execFile(command, args, { encoding: "buffer", maxBuffer: MAX_CLIPBOARD_BYTES }, (error, stdout) => {
			if (!error) resolve(stdout);
			else if ((error as NodeJS.ErrnoException).code === "ENOENT") reject(new Error(`${command} is not installed`));
			else reject(new Error(`${command} failed: ${error.message.split("\n")[0]}`));
		});
	});
}

/** `file://` lines of a `text/uri-list` as local paths; comments and other schemes are skipped. */
export function pathsFromUriList(list: string): string[] {
	return list
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter((line) => line.startsWith("file://"))
		.map((line) => fileURLToPath(line));
}

/** Reads by MIME type through `wl-paste` (Wayland) or `xclip` (X11). */
async function readLinux(env: NodeJS.ProcessEnv): Promise<ClipboardContent> {
	const wayland = Boolean(env.WAYLAND_DISPLAY);
	const listTypes = wayland
		? () => run("wl-paste", ["--list-types"])
		: () => run("xclip", ["-selection", "clipboard", "-t", "TARGETS", "-o"]);
	const read = wayland
		? (type: string) => run("wl-paste", ["--no-newline", "--type", type])
		: (type: string) => run("xclip", ["-selection", "clipboard", "-t", type, "-o"]);
	const types = (await listTypes()).toString("utf8").split(/\r?\n/).filter(Boolean);
	if (types.includes("text/uri-list")) {
		const files = pathsFromUriList((await read("text/uri-list")).toString("utf8"));
		if (files.length > 0) return { files };
	}
	const imageType = types.find((type) => type.startsWith("image/"));
	if (imageType) return { image: { data: await read(imageType), mimeType: imageType } };
	const textType = types.find((type) => type === "UTF8_STRING" || type.startsWith("text/plain")) ?? types[0];
	return textType ? { text: (await read(textType)).toString("utf8") } : {};
}

/** macOS: file references and PNG data through AppleScript, text through `pbpaste`. */
async function readMac(): Promise<ClipboardContent> {
	const file = await run("osascript", ["-e", "POSIX path of (the clipboard as «class furl»)"]).catch(() => undefined);
	const path = file?.toString("utf8").trim();
	if (path) return { files: [path] };
	const png = await run("osascript", ["-e", "the clipboard as «class PNGf»"]).catch(() => undefined);
	const hex = png && /«data PNGf([0-9A-Fa-f]+)»/.exec(png.toString("utf8"))?.[1];
	if (hex) return { image: { data: Buffer.from(hex, "hex"), mimeType: "image/png" } };
	return { text: (await run("pbpaste", [])).toString("utf8") };
}

const WINDOWS_SCRIPT = [
	"Add-Type -AssemblyName System.Windows.Forms, System.Drawing",
	"$files = [System.Windows.Forms.Clipboard]::GetFileDropList()",
	"if ($files.Count -gt 0) { 'files'; $files; exit }",
	"$image = [System.Windows.Forms.Clipboard]::GetImage()",
	"if ($image) { $stream = New-Object IO.MemoryStream; $image.Save($stream, [Drawing.Imaging.ImageFormat]::Png); 'image'; [Convert]::ToBase64String($stream.ToArray()); exit }",
	"'text'; [System.Windows.Forms.Clipboard]::GetText()",
].join("; ");

/** Windows (and WSL through `powershell.exe`): one script reports the kind on its first line. */
async function readWindows(command: string): Promise<ClipboardContent> {
	const output = (await run(command, ["-NoProfile", "-STA", "-Command", WINDOWS_SCRIPT])).toString("utf8");
	const [kind = "", ...rest] = output.split(/\r?\n/);
	if (kind === "files") return { files: rest.filter(Boolean) };
	if (kind === "image") return { image: { data: Buffer.from(rest.join(""), "base64"), mimeType: "image/png" } };
	return { text: rest.join("\n").replace(/\n$/, "") };
}

/** Reads the clipboard through the platform's command-line tools (docs/tui.md "Clipboard"). */
export function systemClipboardReader(
	platform: NodeJS.Platform = process.platform,
	env: NodeJS.ProcessEnv = process.env,
): ClipboardReader {
	if (platform === "darwin") return readMac;
	if (platform === "win32") return () => readWindows("powershell");
	if (platform === "linux" && (env.WSL_DISTRO_NAME || env.WSL_INTEROP) && !env.WAYLAND_DISPLAY && !env.DISPLAY)
		return () => readWindows("powershell.exe");
	return () => readLinux(env);
}
