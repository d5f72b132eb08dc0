/** Process-wide keyboard protocol state, set by the terminal after negotiation. */
let kittyActive = false;

/** Records whether the terminal confirmed the Kitty keyboard protocol; the terminal sets it after negotiation. */
export function setKittyProtocolActive(active: boolean): void {
	kittyActive = active;
}

/** Whether the terminal confirmed the Kitty keyboard protocol, which changes how keys are encoded. */
export function isKittyProtocolActive(): boolean {
	return kittyActive;
}
