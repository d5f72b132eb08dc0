/** Installs (once) and locates the pi 1.6 reference and its Node 22; see pi-reference.mjs. */
export function ensurePiReference(): { node: string; cli: string } | { skipped: string };
