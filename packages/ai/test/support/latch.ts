/** A promise and the function that resolves it, for ordering steps of a test without sleeps. */
export function latch(): { promise: Promise<void>; release: () => void } {
	let release: () => void = () => {};
	const promise = new Promise<void>((resolve) => {
		release = resolve;
	});
	return { promise, release };
}
