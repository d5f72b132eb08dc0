import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { ThinkingLevel } from "@tau/agent";
import type { AssistantMessage } from "@tau/ai";
import { ModelRuntime, SettingsManager } from "../../config/index.js";
import { errorMessage } from "../../core/errors.js";
import { defaultExtensionLoader } from "../../core/extensions/index.js";
import { DefaultResourceLoader } from "../../core/resources/index.js";
import { SessionManager } from "../../core/session/index.js";
import { createAgentSession } from "../../sdk/create-agent-session.js";
import {
	DEFAULT_AGENT_TIMEOUT_SEC,
	DEFAULT_VERIFIER_TIMEOUT_SEC,
	type EvalBackend,
	InfrastructureError,
	type TrialSandbox,
} from "../backend/backend.js";
import type { TrialRecord } from "../results/trial-record.js";
import type { HarborTask } from "../task/harbor-task.js";
import { type AgentSetup, resolveSetupModel } from "./agent-setup.js";
import { createTrialAgentDir } from "./trial-agent-dir.js";
import { scoreVerifier } from "./verifier-score.js";

export interface TrialRequest {
	task: HarborTask;
	trial: number;
	backend: EvalBackend;
	setup: AgentSetup;
	/** The user's agent dir, whose models and auth the trial inherits. */
	userAgentDir: string;
	/** The run directory (`--out`). */
	outDir: string;
	/** Aborted by Ctrl+C: the trial stops and is not recorded. */
	signal: AbortSignal;
	/** Called when the agent's work has ended and the verifier starts (for the progress display). */
	onVerifying?: () => void;
}

/** The trial was interrupted (Ctrl+C): nothing is recorded, `--resume` runs it again. */
export class TrialInterrupted extends Error {}

const EMPTY_TOKENS = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };

/** The agent's final answer, for verifiers that grade it (`$LOGS_DIR/agent/response.txt`). */
function finalText(message: AssistantMessage | undefined): string {
	if (!message) return "";
	return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/**
 * Runs one trial in-process: a fresh sandbox, agent dir and session (docs/eval.md, "Isolation"), the
 * instruction as the only prompt, then the verifier. Infrastructure failures become an `infra_error`
 * record instead of a task failure.
 */
export async function runTrial(request: TrialRequest): Promise<TrialRecord> {
	const { task, trial, outDir, signal } = request;
	const dir = join(outDir, "trials", task.name, String(trial));
	const logsDir = join(dir, "logs");
	const started = Date.now();
	const record: TrialRecord = {
		task: task.name,
		trial,
		outcome: "infra_error",
		reward: 0,
		pass: false,
		durationMs: 0,
		turns: 0,
		toolCalls: 0,
		tokens: { ...EMPTY_TOKENS },
		cost: 0,
		stopReason: "none",
	};
	let sandbox: TrialSandbox | undefined;
	try {
		sandbox = await request.backend.open(task, { dir, logsDir }, signal);
		const agent = await runAgent(request, sandbox, dir, logsDir, record);
		if (signal.aborted) throw new TrialInterrupted();
		if (agent.providerError !== undefined) {
			record.error = `provider error: ${agent.providerError}`;
			return record;
		}
		request.onVerifying?.();
		const verifierTimeout = task.config.verifierTimeoutSec ?? DEFAULT_VERIFIER_TIMEOUT_SEC;
		const outcome = await sandbox.verify(verifierTimeout, signal);
		if (signal.aborted) throw new TrialInterrupted();
		writeFileSync(join(logsDir, "verifier", "output.txt"), outcome.output);
		const score = scoreVerifier(outcome);
		record.reward = score.reward;
		record.outcome = score.outcome;
		record.pass = score.outcome === "pass";
		if (score.error !== undefined) record.error = score.error;
		return record;
	} catch (error) {
		if (error instanceof TrialInterrupted || signal.aborted) throw new TrialInterrupted();
		const message = errorMessage(error);
		record.error = error instanceof InfrastructureError ? message : `harness error: ${message}`;
		return record;
	} finally {
		record.durationMs = Date.now() - started;
		await sandbox?.dispose().catch(() => undefined);
	}
}

/** Runs the agent on the instruction until it stops, its time runs out, or the run is interrupted. */
async function runAgent(
	request: TrialRequest,
	sandbox: TrialSandbox,
	dir: string,
	logsDir: string,
	record: TrialRecord,
): Promise<{ providerError?: string }> {
	const { task, setup, signal } = request;
	const agentDir = createTrialAgentDir(join(dir, "agent"), request.userAgentDir, setup.settingsFile);
	// Credentials stay in the user's auth.json: a token refreshed during a trial (OAuth refresh tokens
	// rotate) must be saved where the user's next session finds it, and the agent gets no copy.
	const modelRuntime = await ModelRuntime.create({
		authPath: join(request.userAgentDir, "auth.json"),
		modelsPath: join(agentDir, "models.json"),
		refreshOnCreate: false,
	});
	const model = await resolveSetupModel(modelRuntime, setup.model);
	const settingsManager = SettingsManager.create(sandbox.workdir, agentDir);
	const workdir = sandbox.workdir;
	const resourceLoader = new DefaultResourceLoader({
		cwd: workdir,
		agentDir,
		settingsManager,
		loadExtensions: defaultExtensionLoader,
		additionalExtensionPaths: setup.extensions,
		additionalSkillPaths: setup.skills,
		// Context files come from the task's workspace only, never from folders above the run directory.
		agentsFilesOverride: (base) => ({
			agentsFiles: base.agentsFiles.filter((file) => !relative(workdir, file.path).startsWith("..")),
		}),
	});
	await resourceLoader.reload();
	const sessionManager = SessionManager.create(workdir, join(dir, "session"), undefined, { agentDir });
	const { session } = await createAgentSession({
		cwd: workdir,
		agentDir,
		modelRuntime,
		model,
		...(setup.thinking ? { thinkingLevel: setup.thinking as ThinkingLevel } : {}),
		resourceLoader,
		sessionManager,
		settingsManager,
		...(sandbox.tools ? { customTools: sandbox.tools } : {}),
	});
	const extensionErrors: string[] = [];
	const timeoutSec = setup.timeoutSec ?? task.config.agentTimeoutSec ?? DEFAULT_AGENT_TIMEOUT_SEC;
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		void session.abort();
	}, timeoutSec * 1000);
	const onAbort = () => void session.abort();
	signal.addEventListener("abort", onAbort, { once: true });
	try {
		await session.bindExtensions({
			mode: "print",
			onError: (error) => extensionErrors.push(`${error.extensionPath}: ${error.error}`),
		});
		await session.prompt(task.instruction);
		await session.waitForIdle();
	} finally {
		clearTimeout(timer);
		signal.removeEventListener("abort", onAbort);
		// Extensions see the session end (`session_shutdown`), as in print mode.
		await session.shutdown();
	}
	const stats = session.getSessionStats();
	const last = session.messages.findLast((message) => message.role === "assistant") as AssistantMessage | undefined;
	record.turns = stats.assistantMessages;
	record.toolCalls = stats.toolCalls;
	record.tokens = { ...stats.tokens };
	record.cost = stats.cost;
	record.stopReason = timedOut ? "timeout" : (last?.stopReason ?? "none");
	if (stats.sessionFile) record.sessionFile = relative(request.outDir, stats.sessionFile);
	mkdirSync(join(logsDir, "agent"), { recursive: true });
	writeFileSync(join(logsDir, "agent", "response.txt"), finalText(last));
	if (extensionErrors.length > 0) {
		writeFileSync(join(logsDir, "agent", "extension-errors.txt"), extensionErrors.join("\n"));
	}
	if (!timedOut && last?.stopReason === "error") return { providerError: last.errorMessage ?? "request failed" };
	return {};
}
