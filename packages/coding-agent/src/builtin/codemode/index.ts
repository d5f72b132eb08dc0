export { type CodemodeExtensionOptions, codemodeReachesTools, createCodemodeExtension } from "./codemode-extension.js";
export type { CodemodeDetails } from "./executor.js";
export { CODEMODE_TOOL_NAME } from "./loadout.js";
export type { CodemodeCallRow } from "./nested-tools.js";
export { CODEMODE_STORE_ENTRY_TYPE, type CodemodeStoreEntryData, readCodemodeStore } from "./store.js";
export { CodemodeWorkerPool, codemodeWorkerCapacity, sharedWorkerPool, WorkerWaitError } from "./worker-pool.js";
