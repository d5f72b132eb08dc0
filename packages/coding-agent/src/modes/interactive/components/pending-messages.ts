import { type Component, sanitizeTerminalText, truncateToWidth } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";

/** Steering and follow-up messages waiting for delivery, with the hint to pull them back. */
export class PendingMessagesView implements Component {
	private steering: readonly string[] = [];
	private followUp: readonly string[] = [];
	private compactionQueue: readonly string[] = [];
	private cache: { width: number; lines: string[] } | undefined;

	constructor(
		private readonly theme: UiTheme,
		private readonly dequeueKey: () => string,
	) {}

	setQueues(steering: readonly string[], followUp: readonly string[], compactionQueue: readonly string[] = []): void {
		this.steering = steering;
		this.followUp = followUp;
		this.compactionQueue = compactionQueue;
		this.cache = undefined;
	}

	invalidate(): void {
		this.cache = undefined;
	}

	render(width: number): readonly string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const entries = [
			...this.steering.map((text) => `Steering: ${text}`),
			...this.followUp.map((text) => `Follow-up: ${text}`),
			...this.compactionQueue.map((text) => `Queued for after compaction: ${text}`),
		];
		const line = (text: string) =>
			truncateToWidth(this.theme.dim(sanitizeTerminalText(text).replace(/\s+/g, " ")), width, this.theme.dim("..."));
		const lines =
			entries.length === 0
				? []
				: [
						"",
						...entries.map(line),
						...(this.dequeueKey() ? [line(`↳ ${this.dequeueKey()} to edit all queued messages`)] : []),
					];
		this.cache = { width, lines };
		return lines;
	}
}
