export { type ProtocolName, sseFrame } from "./protocols/protocol.js";
export type { RecordedRequest, RequestOutcome } from "./request-log.js";
export { generateWords, splitIntoPieces } from "./scenario/resolve.js";
export type {
	CutPoint,
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
