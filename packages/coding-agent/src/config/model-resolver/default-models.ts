// The default-model table is catalog data and lives next to the catalog in @tau/ai.
export { DEFAULT_MODEL_PER_PROVIDER, defaultModelIdFor } from "@tau/ai/providers/all";
