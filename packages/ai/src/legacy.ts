// `@tau/ai/legacy`: the root entry plus every built-in catalog and provider factory, in one
// namespace. Pi extensions import catalog reads such as `getModel` from pi-ai's root; the
// coding agent serves them this module so they keep working while `@tau/ai` stays catalog-free.
export * from "./index.js";
export * from "./providers/builtin/all.js";
export * from "./providers/builtin/anthropic.js";
export * from "./providers/builtin/deepseek.js";
export * from "./providers/builtin/google.js";
export * from "./providers/builtin/groq.js";
export * from "./providers/builtin/local.js";
export * from "./providers/builtin/openai.js";
export * from "./providers/builtin/openrouter.js";
export * from "./providers/builtin/xai.js";
