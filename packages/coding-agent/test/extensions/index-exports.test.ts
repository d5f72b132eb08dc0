import * as codingAgent from "@tau/coding-agent";
import { describe, expect, it } from "vitest";

// docs/design/extensions.md#the-extension-api: the runtime values the coding-agent index must expose to extensions (types are
// checked by the compiler).
const REQUIRED = [
	"defineTool",
	"isToolCallEventType",
	"isBashToolResult",
	"isPowerShellToolResult",
	"isReadToolResult",
	"isEditToolResult",
	"isWriteToolResult",
	"isGrepToolResult",
	"isFindToolResult",
	"isLsToolResult",
	"CONFIG_DIR_NAME",
	"VERSION",
	"getAgentDir",
	"createReadTool",
	"createBashTool",
	"createEditTool",
	"createWriteTool",
	"createGrepTool",
	"createFindTool",
	"createLsTool",
	"createPowerShellTool",
	"createCodingTools",
	"createReadOnlyTools",
	"createLocalBashOperations",
	"createLocalPowerShellOperations",
	"withFileMutationQueue",
	"truncateHead",
	"truncateTail",
	"truncateLine",
	"formatSize",
	"DEFAULT_MAX_BYTES",
	"DEFAULT_MAX_LINES",
	"SessionManager",
	"SettingsManager",
	"DefaultResourceLoader",
	"ModelRuntime",
	"createAgentSession",
	"createAgentSessionRuntime",
	"createExtensionRuntime",
	"createCodemodeExtension",
	"createToolSearchExtension",
	"createMcpExtension",
	"CustomEditor",
	"highlightCode",
	"getLanguageFromPath",
	"keyHint",
	"keyText",
	"rawKeyHint",
	"convertToLlm",
	"VIRTUAL_MODEL_STATE_ENTRY",
] as const;

describe("the coding-agent index exposed to extensions", () => {
	it("exports every required runtime value", () => {
		const exported = codingAgent as Record<string, unknown>;
		expect(REQUIRED.filter((name) => exported[name] === undefined)).toEqual([]);
		expect(exported.VIRTUAL_MODEL_STATE_ENTRY).toBe("pi.virtual-model-state");
	});
});
