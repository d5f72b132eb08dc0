/** Wall-clock deadline of one run unless the caller sets another. */
export const DEFAULT_TIMEOUT_MS = 300_000;
/** QuickJS stack guard; deep recursion becomes a catchable error well before the wasm stack traps. */
export const DEFAULT_MAX_STACK_BYTES = 512 * 1024;
/** Total text plus base64 image characters one run may produce. */
export const MAX_OUTPUT_CHARS = 16_777_216;
/** Number of output items (`text`, `image`, `console.*`) one run may produce. */
export const MAX_OUTPUT_ITEMS = 100_000;
/** Largest JSON text a single `store()` value may have. */
export const MAX_STORE_VALUE_CHARS = 262_144;
/** Largest total of key plus JSON characters across the store, snapshot included. */
export const MAX_STORE_TOTAL_CHARS = 1_048_576;
/** Promise jobs run between two polls of the interrupt flag. */
export const JOBS_PER_INTERRUPT_POLL = 50;
