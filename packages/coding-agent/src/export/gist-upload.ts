import { spawn } from "node:child_process";

/** What a finished external command printed and how it exited. */
export interface CommandOutcome {
	exitCode: number;
	stdout: string;
	stderr: string;
}

/** Runs a program without a shell; rejects with `CommandNotFoundError` when it is not installed. */
export type CommandRunner = (command: string, args: readonly string[]) => Promise<CommandOutcome>;

export class CommandNotFoundError extends Error {
	constructor(readonly command: string) {
		super(`${command} is not installed`);
		this.name = "CommandNotFoundError";
	}
}

/** The default runner: `process.env` (so `PATH` decides which `gh` runs), output captured. */
export const runCommand: CommandRunner = (command, args) =>
	new Promise((resolve, reject) => {
		const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: process.env });
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk: Buffer) => {
			stdout += chunk.toString("utf8");
		});
		child.stderr.on("data", (chunk: Buffer) => {
			stderr += chunk.toString("utf8");
		});
		child.on("error", (error: NodeJS.ErrnoException) => {
			reject(error.code === "ENOENT" ? new CommandNotFoundError(command) : error);
		});
		child.on("close", (code, signal) => {
			resolve({ exitCode: code ?? (signal ? 128 : 1), stdout, stderr });
		});
	});

/** Why a gist could not be created, worded for the user. */
export class GistUploadError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "GistUploadError";
	}
}

export interface CreatedGist {
	url: string;
	id: string;
}

/** The first gist URL gh printed; its last path segment is the gist id. */
export function parseGistUrl(stdout: string): CreatedGist | undefined {
	const match = /https:\/\/gist\.github\.com\/\S+/.exec(stdout);
	if (!match) return undefined;
	const url = match[0].replace(/[/.,;]+$/, "");
	const id = url.split("/").pop();
	return id ? { url, id } : undefined;
}

/**
 * Uploads `file` as a secret gist (gh's default; `--public` is never passed) after checking that
 * gh is installed and signed in.
 */
export async function uploadSecretGist(
	file: string,
	description: string,
	run: CommandRunner = runCommand,
): Promise<CreatedGist> {
	let auth: CommandOutcome;
	try {
		auth = await run("gh", ["auth", "status"]);
	} catch (error) {
		if (error instanceof CommandNotFoundError) {
			throw new GistUploadError(
				"The GitHub CLI (gh) is not installed. Install it from https://cli.github.com, run `gh auth login`, then try /share again (or /export the page and share the file yourself).",
			);
		}
		throw error;
	}
	if (auth.exitCode !== 0) {
		throw new GistUploadError(
			"The GitHub CLI is not logged in. Run `gh auth login`, then try /share again (or /export the page and share the file yourself).",
		);
	}
	const created = await run("gh", ["gist", "create", "--desc", description, file]);
	if (created.exitCode !== 0) {
		const reason = created.stderr.trim() || `gh exited with code ${created.exitCode}`;
		throw new GistUploadError(`Gist upload failed: ${reason}`);
	}
	const gist = parseGistUrl(created.stdout);
	if (!gist) throw new GistUploadError(`Gist upload failed: gh printed no gist URL (${created.stdout.trim()})`);
	return gist;
}

/**
 * A static page that renders a gist's HTML file in the browser (it fetches the gist from GitHub
 * itself; no other server sees the session), used when `TAU_SHARE_VIEWER_URL` names no viewer.
 */
export const DEFAULT_GIST_VIEWER = "https://gistpreview.github.io/";

/** `<viewer>#<gist id>` when a viewer is configured, else the default gist viewer's `?<gist id>` link. */
export function shareViewerLink(gist: CreatedGist, viewerUrl: string | undefined): string {
	const base = viewerUrl?.trim();
	return base ? `${base.replace(/#.*$/, "")}#${gist.id}` : `${DEFAULT_GIST_VIEWER}?${gist.id}`;
}
