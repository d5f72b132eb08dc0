// `@tau/ai/models`: the runtime skeleton alone, for hosts that bring their own providers.
// It loads no catalog and no schema validator.

export { createProvider } from "../providers/create-provider.js";
export { InMemoryModelsStore } from "./memory-models-store.js";
export { getModelType, hasApi, isModelType, modelsAreEqual } from "./model-helpers.js";
export { createModels } from "./models-collection.js";
export { ModelsError, type ModelsErrorCode } from "./models-error.js";
