export type { ProtocolName } from "./protocols/protocol.js";
export type { RecordedRequest, RequestOutcome } from "./request-log.js";
export { generateWords, splitIntoPieces } from "./scenario/resolve.js";
export type {
	MockBlock,
	MockErrorDetails,
	MockFault,
	MockStopReason,
	MockThinking,
	MockToolCall,
	MockTurn,
	MockUsage,
	RawTurn,
	ScriptedReply,
	ScriptedText,
} from "./scenario/turn.js";
export { type MockLlmServer, type MockLlmServerOptions, startMockLlmServer, type TurnFactory } from "./server.js";
