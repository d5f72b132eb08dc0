/** A point a faux response step waits at until the test opens it (no timers); `started` resolves when it is reached. */
export function gate(): { started: Promise<void>; open: () => void; wait: () => Promise<void> } {
	let markStarted!: () => void;
	let open!: () => void;
	const started = new Promise<void>((resolve) => {
		markStarted = resolve;
	});
	const opened = new Promise<void>((resolve) => {
		open = resolve;
	});
	return {
		started,
		open,
		wait: async () => {
			markStarted();
			await opened;
		},
	};
}
