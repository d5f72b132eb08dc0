/** Process-wide keyboard protocol state, set by the terminal after negotiation. */
let kittyActive = false;

export function setKittyProtocolActive(active: boolean): void {
	kittyActive = active;
}

export function isKittyProtocolActive(): boolean {
	return kittyActive;
}
