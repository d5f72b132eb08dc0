import { spawn } from "node:child_process";

/** Terminals refuse larger OSC 52 payloads; tau then reports the copy as failed instead of sending it. */
const MAX_OSC52_BASE64 = 100_000;

type Env = Readonly<Record<string, string | undefined>>;

/** The clipboard commands to try on this platform, in order. */
function clipboardCommands(platform: NodeJS.Platform, env: Env): [string, string[]][] {
	if (platform === "darwin") return [["pbcopy", []]];
	if (platform === "win32") return [["clip", []]];
	const commands: [string, string[]][] = [];
	if (env.TERMUX_VERSION) commands.push(["termux-clipboard-set", []]);
	if (env.WAYLAND_DISPLAY) commands.push(["wl-copy", []]);
	if (env.DISPLAY) commands.push(["xclip", ["-selection", "clipboard"]], ["xsel", ["--clipboard", "--input"]]);
	return commands;
}

/** Writes `text` to a command's stdin; true when it exits 0 within five seconds. */
function pipeTo(command: string, args: string[], text: string): Promise<boolean> {
	return new Promise((resolve) => {
		let child: ReturnType<typeof spawn>;
		try {
			child = spawn(command, args, { stdio: ["pipe", "ignore", "ignore"] });
		} catch {
			resolve(false);
			return;
		}
		const timer = setTimeout(() => child.kill(), 5000);
		child.on("error", () => {
			clearTimeout(timer);
			resolve(false);
		});
		child.on("close", (code) => {
			clearTimeout(timer);
			resolve(code === 0);
		});
		child.stdin?.on("error", () => {});
		child.stdin?.end(text);
	});
}

function isRemote(env: Env): boolean {
	return Boolean(env.SSH_CONNECTION || env.SSH_CLIENT || env.MOSH_CONNECTION);
}

/**
 * Copies text to the system clipboard (docs/extensions.md): the platform's clipboard command first;
 * in a remote or display-less session also through the terminal (OSC 52), which reaches the client's
 * clipboard. Rejects when no route worked.
 */
export async function copyToClipboard(
	text: string,
	options: { platform?: NodeJS.Platform; env?: Env; write?: (data: string) => void } = {},
): Promise<void> {
	const platform = options.platform ?? process.platform;
	const env = options.env ?? process.env;
	let copied = false;
	for (const [command, args] of clipboardCommands(platform, env)) {
		if (await pipeTo(command, args, text)) {
			copied = true;
			break;
		}
	}
	const headless = platform === "linux" && !env.DISPLAY && !env.WAYLAND_DISPLAY && !env.TERMUX_VERSION;
	if (isRemote(env) || (!copied && headless)) {
		const encoded = Buffer.from(text, "utf8").toString("base64");
		if (encoded.length <= MAX_OSC52_BASE64) {
			(options.write ?? ((data) => process.stdout.write(data)))(`\x1b]52;c;${encoded}\x07`);
			copied = true;
		}
	}
	if (!copied) throw new Error("Could not copy to the clipboard: no clipboard command succeeded");
}
