export type { MockCopilotModel, MockCopilotPolicy, MockCopilotSeatOptions } from "./oauth/copilot-seat.js";
export {
	type MockOAuthServer,
	type MockOAuthServerOptions,
	type OAuthExchange,
	type ResourceGrant,
	startMockOAuthServer,
} from "./oauth/oauth-server.js";
export {
	type CallPiOptions,
	callPi,
	decodeOracleArgument,
	differencesFromPi,
	encodeOracleValue,
	expectSameAnswersAsPi,
	type OracleCall,
	type OracleDifference,
	type OracleNormalizer,
	type OracleResult,
	oracleDifferences,
	oracleTitle,
	type PiOracle,
	piOracle,
	runOracleCalls,
} from "./pi-oracle.js";
export { PI_MESSAGES_PRICES } from "./protocols/pi-messages.js";
export { type ProtocolName, sseFrame } from "./protocols/protocol.js";
export {
	type InterceptCertificate,
	type ProxyServer,
	type ProxyServerOptions,
	startProxyServer,
} from "./proxy/connect-proxy.js";
export { createTestCertificates, opensslAvailable, type TestCertificates } from "./proxy/test-certificates.js";
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
export { type SeededRandom, seededRandom } from "./seeded-random.js";
export { type MockLlmServer, type MockLlmServerOptions, startMockLlmServer, type TurnFactory } from "./server.js";
