import { Editor } from "@tau/tui";

/** The prompt editor: application keys get the first look unless the autocomplete menu is open. */
export class AppEditor extends Editor {
	onAction?: (data: string) => boolean;

	override handleInput(data: string): void {
		if (!this.isShowingAutocomplete() && this.onAction?.(data)) return;
		super.handleInput(data);
	}
}
