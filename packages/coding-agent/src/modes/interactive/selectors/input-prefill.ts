import type { Input } from "@tau/tui";

/**
 * Puts `text` into an empty input with the cursor after it, ready to be edited or extended
 * (`Input.setValue` keeps the cursor where it was, at the start). Inserted as a paste, so any
 * key binding of the user is irrelevant.
 */
export function prefillInput(input: Input, text: string): void {
	input.handleInput(`\x1b[200~${text}\x1b[201~`);
}
