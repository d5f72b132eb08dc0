import { type EditorState, stateFromText } from "./editor-text.js";

const MAX_HISTORY = 100;

/** Submitted prompts for Up/Down browsing (newest first), and the draft put aside while browsing. */
export class EditorHistory {
	private readonly entries: string[] = [];
	private index = -1;
	private draft: EditorState | undefined;

	get browsing(): boolean {
		return this.index >= 0;
	}

	add(text: string): void {
		const entry = text.trim();
		if (!entry || this.entries[0] === entry) return;
		this.entries.unshift(entry);
		if (this.entries.length > MAX_HISTORY) this.entries.length = MAX_HISTORY;
	}

	/** Whether a step in this direction leads anywhere (older is +1, newer is -1). */
	canStep(direction: 1 | -1): boolean {
		return this.entries.length > 0 && this.index + direction < this.entries.length;
	}

	/**
	 * The state after one step; `current` is kept as the draft when browsing starts and comes
	 * back, cursor at its end, when stepping past the newest entry.
	 */
	step(direction: 1 | -1, current: EditorState): EditorState | undefined {
		if (!this.canStep(direction)) return undefined;
		const next = this.index + direction;
		if (this.index < 0 && direction > 0) this.draft = { ...current, lines: [...current.lines] };
		if (next < 0) {
			const draft = this.draft;
			this.exit();
			if (!draft) return undefined;
			return {
				...draft,
				cursorLine: draft.lines.length - 1,
				cursorCol: draft.lines[draft.lines.length - 1]!.length,
			};
		}
		this.index = next;
		return stateFromText(this.entries[next]!, direction > 0 ? "start" : "end");
	}

	exit(): void {
		this.index = -1;
		this.draft = undefined;
	}
}
