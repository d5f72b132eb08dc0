import { type Component, Container } from "@tau/tui";

/** The conversation: messages, tool calls, notices, in order. */
export class ChatTranscript extends Container {
	/** Inserts before `anchor` (appends when the anchor is not in the transcript). */
	insertBefore(component: Component, anchor: Component | undefined): void {
		const index = anchor ? this.children.indexOf(anchor) : -1;
		if (index < 0) this.addChild(component);
		else this.children.splice(index, 0, component);
	}
}
