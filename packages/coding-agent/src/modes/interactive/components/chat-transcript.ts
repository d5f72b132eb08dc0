import { type Component, LazyContainer } from "@tau/tui";

/**
 * The conversation: messages, tool calls, notices, in order. A resumed history is drawn from its
 * end (`deferHead`), so opening a long session costs about one screen.
 */
export class ChatTranscript extends LazyContainer {
	/** Inserts before `anchor` (appends when the anchor is not in the transcript). */
	insertBefore(component: Component, anchor: Component | undefined): void {
		const index = anchor ? this.children.indexOf(anchor) : -1;
		if (index < 0) this.addChild(component);
		else this.children.splice(index, 0, component);
	}
}
