import { execFileSync } from "node:child_process";

/** The inline image protocol the terminal speaks, or null when it shows no images. */
export type ImageProtocol = "kitty" | "iterm2" | null;

/** What the terminal supports: an image protocol, 24-bit colour and hyperlinks. */
export interface TerminalCapabilities {
	images: ImageProtocol;
	trueColor: boolean;
	hyperlinks: boolean;
}

/** `"auto"` (or absent) keeps detection. */
export interface CapabilityOverrides {
	images?: ImageProtocol | "auto";
	trueColor?: boolean | "auto";
	hyperlinks?: boolean | "auto";
}

type Env = NodeJS.ProcessEnv;

function trueColorHint(env: Env): boolean {
	const colorterm = env.COLORTERM?.toLowerCase();
	return colorterm === "truecolor" || colorterm === "24bit" || !!env.TERM?.endsWith("-direct");
}

function tmuxHyperlinks(): boolean {
	try {
		const out = execFileSync("tmux", ["display-message", "-p", "#{client_termfeatures}"], {
			timeout: 250,
			encoding: "utf8",
			stdio: ["ignore", "pipe", "ignore"],
		});
		return out.split(",").some((f) => f.trim() === "hyperlinks");
	} catch {
		return false;
	}
}

/** Capabilities from the environment alone (first matching terminal wins). */
export function detectCapabilities(env: Env = process.env): TerminalCapabilities {
	const term = env.TERM ?? "";
	const program = env.TERM_PROGRAM?.toLowerCase() ?? "";
	const hint = trueColorHint(env);
	const caps = (images: ImageProtocol, hyperlinks: boolean, trueColor = hint): TerminalCapabilities => ({
		images,
		trueColor,
		hyperlinks,
	});
	if (env.TMUX || term.startsWith("tmux")) return caps(null, tmuxHyperlinks());
	if (term.startsWith("screen")) return caps(null, false);
	if (program === "herdr") return caps("kitty", true);
	if (program === "rex") return caps("kitty", true, true);
	if (program === "orca" && env.ORCA_IMAGE_PROTOCOL === "kitty") return caps("kitty", true);
	if (env.KITTY_WINDOW_ID || program === "kitty") return caps("kitty", true);
	if (program === "ghostty" || term.includes("ghostty") || env.GHOSTTY_RESOURCES_DIR) return caps("kitty", true);
	if (env.WEZTERM_PANE || program === "wezterm") return caps("kitty", true);
	if (program === "warpterminal" || env.WARP_SESSION_ID || env.WARP_TERMINAL_SESSION_UUID) return caps("kitty", true);
	if (env.ITERM_SESSION_ID || program === "iterm.app") return caps("iterm2", true);
	if (env.WT_SESSION) return caps(null, true, true);
	if (program === "alacritty" || term.startsWith("alacritty") || env.ALACRITTY_WINDOW_ID)
		return caps(null, true, true);
	if (program === "vscode" || program === "zed") return caps(null, true, true);
	if (env.TERMINAL_EMULATOR === "jetbrains-jediterm") return caps(null, false, true);
	if (process.platform === "win32") return caps(null, false, true);
	return caps(null, false);
}

function envOverrides(env: Env): Partial<TerminalCapabilities> {
	const out: Partial<TerminalCapabilities> = {};
	if (env.TAU_HYPERLINKS === "1" || env.TAU_HYPERLINKS === "0") out.hyperlinks = env.TAU_HYPERLINKS === "1";
	if (env.TAU_TRUE_COLOR === "1" || env.TAU_TRUE_COLOR === "0") out.trueColor = env.TAU_TRUE_COLOR === "1";
	const image = env.TAU_IMAGE_PROTOCOL;
	if (image === "kitty" || image === "iterm2") out.images = image;
	else if (image === "none" || image === "0") out.images = null;
	return out;
}

let cached: TerminalCapabilities | undefined;
let applicationOverrides: Partial<TerminalCapabilities> = {};
/** The combined result: every styled span asks for the colour mode, and reading the environment is slow. */
let resolved: TerminalCapabilities | undefined;

function resolveCapabilities(): TerminalCapabilities {
	cached ??= detectCapabilities();
	resolved ??= { ...cached, ...envOverrides(process.env), ...applicationOverrides };
	return resolved;
}

/** Detected capabilities with environment and application overrides applied (application wins). */
export function getCapabilities(): TerminalCapabilities {
	return { ...resolveCapabilities() };
}

/** Overrides detected capabilities (images, true colour, hyperlinks); `auto` or undefined keeps detection. */
export function setCapabilityOverrides(overrides: CapabilityOverrides): void {
	resolved = undefined;
	applicationOverrides = {};
	for (const [key, value] of Object.entries(overrides)) {
		if (value !== undefined && value !== "auto") (applicationOverrides as Record<string, unknown>)[key] = value;
	}
}

/** Replaces detection (tests, or a renderer that must disable images temporarily). */
export function setCapabilities(capabilities: TerminalCapabilities | undefined): void {
	cached = capabilities;
	resolved = undefined;
}

/** Forgets the detected terminal capabilities so the next query detects them again (after the environment changed). */
export function resetCapabilitiesCache(): void {
	cached = undefined;
	resolved = undefined;
}

/**
 * Whether the terminal gets 24-bit colour or the 256-colour palette, from the detected (or overridden) capabilities.
 */
export function getTerminalColorMode(): "truecolor" | "256color" {
	return resolveCapabilities().trueColor ? "truecolor" : "256color";
}
