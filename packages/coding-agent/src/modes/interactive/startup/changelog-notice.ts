import type { AgentSession } from "../../../core/agent-session/agent-session.js";
import type { Theme } from "../../../core/resources/index.js";
import { appChangelogUpdates, findAppChangelog } from "../../../core/resources/packages/app-changelog.js";
import { extensionPackageUpdates } from "../../../core/resources/packages/package-changelog.js";
import { branchHasContext, fromBranchEnd } from "../../../core/session/index.js";
import { type ChangelogSection, ChangelogView } from "../components/changelog-view.js";
import type { MarkdownTransform } from "../components/markdown-transform.js";

/**
 * What a fresh interactive start shows of changelogs: the app's "What's New", then "Extension
 * Updates" of package extensions (docs/design/resources.md#changelogs). A session that already has messages shows
 * nothing and records nothing. Reading both records the versions seen in the user settings.
 */
export function startupChangelogView(
	session: AgentSession,
	theme: Theme,
	transform?: MarkdownTransform,
): ChangelogView | undefined {
	// From the branch's end: a long session is still opening here (AgentSession.isOpening).
	if (fromBranchEnd(session.sessionManager, branchHasContext)) return undefined;
	const settings = session.settingsManager;
	const sections: ChangelogSection[] = [];
	const changelog = findAppChangelog();
	const whatsNew = changelog ? appChangelogUpdates(changelog, settings) : undefined;
	if (whatsNew) sections.push({ title: "What's New", markdown: whatsNew });
	const sources = session.resourceLoader.getExtensions().extensions.map((extension) => extension.sourceInfo);
	const extensionUpdates = extensionPackageUpdates(sources, settings);
	if (extensionUpdates) sections.push({ title: "Extension Updates", markdown: extensionUpdates });
	return sections.length > 0 ? new ChangelogView(theme, sections, transform) : undefined;
}
