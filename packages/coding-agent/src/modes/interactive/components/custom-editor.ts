import { Editor } from "@tau/tui";

/** The prompt editor: application keys get the first look; unclaimed keys edit the text. */
export class AppEditor extends Editor {
	onAction?: (data: string) => boolean;

	override handleInput(data: string): void {
		if (this.onAction?.(data)) return;
		super.handleInput(data);
	}
}
