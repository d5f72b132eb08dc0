import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ENV, VERSION } from "../../../config/index.js";
import { collectDiagnostics, sessionTranscript, writeBugReport } from "../../../export/bug-report.js";
import { GistUploadError, shareViewerLink, uploadSecretGist } from "../../../export/gist-upload.js";
import { exportThemeOf } from "../theme/ui-theme.js";
import type { BuiltinCommand, CommandHost } from "./command-host.js";

function hasMessages(host: CommandHost): boolean {
	return host.session.sessionManager.getEntries().some((entry) => entry.type === "message");
}

/**
 * `/share`: the HTML export uploaded as a secret gist after the user agrees. tau has no Radius
 * sign-in, so `auto` means the gist and an explicit `radius` destination is refused.
 */
export async function shareSession(host: CommandHost): Promise<void> {
	if (host.session.settingsManager.getSessionShareDestination() === "radius") {
		host.notify(
			"error",
			`Sharing to Radius is not available in ${host.appName} (there is no Radius sign-in). Set sessionShareDestination to "gist" or "auto" to share as a secret GitHub gist.`,
		);
		return;
	}
	if (!hasMessages(host)) {
		host.notify("info", "Nothing to share yet");
		return;
	}
	const confirm = await host.pick(
		"Share this session as a secret GitHub gist?",
		[
			{ value: "no", label: "Cancel" },
			{ value: "yes", label: "Upload the transcript" },
		],
		{ hint: "The transcript may contain secrets (keys, file contents); anyone with the link can read it." },
	);
	if (confirm?.value !== "yes") return;

	const directory = mkdtempSync(join(tmpdir(), `${host.appName}-share-`));
	try {
		const file = await host.session.exportToHtml(join(directory, "session.html"), {
			theme: exportThemeOf(host.theme),
		});
		host.notify("info", "Uploading a secret gist…");
		const gist = await uploadSecretGist(file, `${host.appName} session ${host.session.sessionId}`);
		host.notify("success", `Share URL: ${shareViewerLink(gist, process.env[ENV.shareViewerUrl])}`);
		host.notify("info", `Gist: ${gist.url}`);
	} catch (error) {
		const message = (error as Error).message;
		host.notify("error", error instanceof GistUploadError ? message : `Share failed: ${message}`);
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
}

/**
 * `/bug [description]`: a zip in the working directory (or the agent dir) with the version,
 * platform, terminal, model ids, redacted settings, diagnostics and, if chosen, the transcript.
 * Nothing is uploaded and auth.json is never read.
 */
export async function prepareBugReport(host: CommandHost, argument: string): Promise<void> {
	const description =
		argument.trim() ||
		(await host.ask("Describe the bug", { placeholder: "What happened, and what did you expect?" }));
	if (description === undefined) return;
	let includeTranscript = false;
	if (hasMessages(host)) {
		const choice = await host.pick("Include the session transcript in the bug report?", [
			{ value: "no", label: "No, leave the transcript out" },
			{ value: "yes", label: "Yes, include the session transcript (JSONL)" },
		]);
		if (!choice) return;
		includeTranscript = choice.value === "yes";
	}
	const session = host.session;
	const model = session.model;
	try {
		const path = writeBugReport(
			{
				appName: host.appName,
				version: VERSION,
				description: description.trim(),
				...(model
					? { model: { provider: model.provider, id: model.id, thinkingLevel: session.thinkingLevel } }
					: {}),
				settings: {
					global: session.settingsManager.getGlobalSettings(),
					project: session.settingsManager.getProjectSettings(),
				},
				diagnostics: collectDiagnostics(session),
				...(includeTranscript ? { transcript: sessionTranscript(session) } : {}),
				env: process.env,
				createdAt: new Date(),
			},
			[session.cwd, host.agentDir],
		);
		host.notify("success", `Bug report written to: ${path}`);
		host.notify("info", "Nothing was uploaded; attach the file to your bug report.");
	} catch (error) {
		host.notify("error", `Could not write the bug report: ${(error as Error).message}`);
	}
}

const shareCommand: BuiltinCommand = {
	name: "share",
	description: "Share the session as a secret GitHub gist",
	takesArgument: false,
	run: (host) => shareSession(host),
};

const bugCommand: BuiltinCommand = {
	name: "bug",
	description: "Prepare a private bug report (zip)",
	takesArgument: true,
	run: prepareBugReport,
};

export const shareCommands: readonly BuiltinCommand[] = [shareCommand, bugCommand];
