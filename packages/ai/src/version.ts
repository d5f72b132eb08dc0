/** The @tau/ai package version (kept equal to package.json; a test guards it). */
export const TAU_AI_VERSION = "0.1.0";
