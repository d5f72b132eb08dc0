export {
	type JsonAgentSessionEvent,
	type JsonAssistantMessageEvent,
	serializeJsonEvent,
	toJsonEvent,
} from "./event-serialization.js";
export { attachJsonlLineReader, JsonlSplitter, serializeJsonLine } from "./jsonl.js";
export {
	BACKPRESSURE_LIMIT,
	RawWriter,
	type RawWriterOptions,
	type StdoutTakeover,
	takeOverStdout,
} from "./raw-stdout.js";
