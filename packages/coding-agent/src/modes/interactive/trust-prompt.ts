import { ProcessTerminal, SelectList, type SelectListTheme, type Terminal, Text, TuiMainScreen } from "@tau/tui";
import { APP_NAME, CONFIG_DIR_NAME } from "../../config/app-identity.js";
import { type TrustPromptChoice, trustPromptOptions } from "../../config/index.js";

const bold = (text: string) => `\x1b[1m${text}\x1b[22m`;
const dim = (text: string) => `\x1b[2m${text}\x1b[22m`;
const THEME: SelectListTheme = {
	selectedPrefix: (text) => `\x1b[36m${text}\x1b[39m`,
	selectedText: bold,
	description: dim,
	scrollInfo: dim,
	noMatch: dim,
};

/**
 * The startup question whether to trust the project folder (docs/design/resources.md#trust-decision-order). It runs in a
 * small main-screen UI of its own, before the session's UI exists; Escape answers "cancel".
 */
export function askProjectTrust(
	options: { cwd: string; parent: string | undefined },
	terminal: Terminal = new ProcessTerminal(),
): Promise<TrustPromptChoice> {
	return new Promise((resolve) => {
		const tui = new TuiMainScreen(terminal);
		const question = new Text(
			[
				bold("Trust this project folder?"),
				options.cwd,
				dim(
					`Trusting it lets ${APP_NAME} load ${CONFIG_DIR_NAME} settings and resources, install missing project packages and execute project extensions.`,
				),
			].join("\n"),
			1,
			0,
		);
		const items = trustPromptOptions(options.parent).map((option) => ({ value: option.choice, label: option.label }));
		const list = new SelectList(items, items.length, THEME);
		let answered = false;
		const answer = (choice: TrustPromptChoice) => {
			if (answered) return;
			answered = true;
			tui.stop();
			resolve(choice);
		};
		list.onSelect = (item) => answer(item.value as TrustPromptChoice);
		list.onCancel = () => answer("cancel");
		tui.addChild(question);
		tui.addChild(new Text("", 0, 0));
		tui.addChild(list);
		tui.setFocus(list);
		tui.start();
		// Nothing else competes for this frame: draw the question at once.
		tui.renderNow();
	});
}
