import { errorMessage } from "../../core/errors.js";
import type { AgentSession, AgentSessionRuntime } from "../../sdk/index.js";
import { type OneShotInput, runPrompts } from "../print/one-shot.js";
import { type StdoutTakeover, serializeJsonEvent, serializeJsonLine } from "../shared/index.js";

/**
 * JSON mode (docs/design/cli.md#json-mode): the session header, then every session event as one JSON line. The
 * agent awaits the writer at each event, so a slow reader slows the agent instead of growing memory.
 * A failed answer still exits 0; only an escaping exception is non-zero.
 */
export async function runJsonMode(
	runtime: AgentSessionRuntime,
	input: OneShotInput,
	stdout: StdoutTakeover,
	options: { tauEvents?: boolean } = {},
): Promise<number> {
	const { writer } = stdout;
	const header = runtime.session.sessionManager.getHeader();
	if (header) await writer.write(serializeJsonLine(header));
	let unsubscribe: (() => void) | undefined;
	const attach = (session: AgentSession) => {
		unsubscribe?.();
		const stopEvents = session.subscribe(
			(event) => {
				void writer.write(serializeJsonEvent(event));
			},
			{ tauEvents: options.tauEvents === true },
		);
		// The agent awaits its listeners, so this one holds the loop until stdout drained.
		const stopBackpressure = session.agent.subscribe(() => writer.waitForBackpressure());
		unsubscribe = () => {
			stopEvents();
			stopBackpressure();
		};
	};
	let code = 0;
	try {
		await runPrompts(runtime, input, { mode: "json", attach });
	} catch (error) {
		process.stderr.write(`${errorMessage(error)}\n`);
		code = 1;
	} finally {
		await runtime.dispose().catch(() => undefined);
		unsubscribe?.();
		await writer.flush();
	}
	return code;
}
