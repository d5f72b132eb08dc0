import { appChangelogMarkdown, findAppChangelog } from "../../../core/resources/packages/app-changelog.js";
import { ChangelogView } from "../components/changelog-view.js";
import type { BuiltinCommand } from "./command-host.js";

/** `/changelog`: every entry of the app's own changelog, as the file orders them (docs/design/resources.md#changelogs). */
export const changelogCommand: BuiltinCommand = {
	name: "changelog",
	description: "Show changelog entries",
	takesArgument: false,
	run(host) {
		const markdown = appChangelogMarkdown(findAppChangelog());
		if (!markdown) {
			host.notify("info", "No changelog entries found.");
			return;
		}
		host.showComponent(new ChangelogView(host.theme, [{ title: "Changelog", markdown }], host.markdownTransform));
	},
};
