/** The @tau/ai package version (kept equal to package.json; a test guards it). */
export const TAU_AI_VERSION = "0.1.0";

/** The pi-ai release whose public API @tau/ai provides (docs/pi-compatibility.md). */
export const PI_AI_VERSION = "1.6.0";
