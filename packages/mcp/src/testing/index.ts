export { createInMemoryTransportPair } from "./in-memory-transport.js";
