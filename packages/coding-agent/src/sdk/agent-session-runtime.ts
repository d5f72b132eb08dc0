import { existsSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import type { AgentSession } from "../core/agent-session/agent-session.js";
import type {
	ProjectTrustContext,
	ReplacedSessionContext,
	SessionBeforeForkResult,
	SessionBeforeSwitchResult,
	SessionStartEvent,
} from "../core/extensions/index.js";
import { forkSession, READ_ONLY_WARNING, SessionManager } from "../core/session/index.js";
import type { CreateAgentSessionResult } from "./create-agent-session.js";
import type { AgentSessionRuntimeDiagnostic, AgentSessionServices } from "./services.js";

/**
 * Creates the session for an `AgentSessionRuntime` each time it starts or replaces one (new, resume, fork,
 * import), for a given working directory, agent directory and session manager.
 */
export type CreateAgentSessionRuntimeFactory = (options: {
	cwd: string;
	agentDir: string;
	sessionManager: SessionManager;
	sessionStartEvent?: SessionStartEvent;
	projectTrustContext?: ProjectTrustContext;
}) => Promise<
	CreateAgentSessionResult & { services: AgentSessionServices; diagnostics: AgentSessionRuntimeDiagnostic[] }
>;

export interface RuntimeTarget {
	cwd: string;
	agentDir: string;
	sessionManager: SessionManager;
	sessionStartEvent?: SessionStartEvent;
}

type WithSession = (context: ReplacedSessionContext) => Promise<void>;

/** Optional steps of a replacement: the new session's seeding, its project trust, the host's follow-up. */
interface ReplacementSteps {
	withSession?: WithSession;
	projectTrustContext?: ProjectTrustContext;
	afterCreate?: (session: AgentSession) => Promise<void>;
}
type ShutdownReason = "new" | "resume" | "fork" | "quit";

/** The session's working directory no longer exists. */
export class MissingSessionCwdError extends Error {
	constructor(readonly cwd: string) {
		super(`Session working directory does not exist: ${cwd}`);
		this.name = "MissingSessionCwdError";
	}
}

/** `importFromJsonl` was given a path that does not exist. */
export class SessionImportFileNotFoundError extends Error {
	constructor(readonly path: string) {
		super(`Session file not found: ${path}`);
		this.name = "SessionImportFileNotFoundError";
	}
}

function assertCwdExists(cwd: string): void {
	if (!existsSync(cwd)) throw new MissingSessionCwdError(cwd);
}

/**
 * What opening the session file found (skipped lines, a failed migration), reported once with the
 * other startup diagnostics. The lock warning is left out: each mode reports a locked session itself.
 */
function sessionFileDiagnostics(session: AgentSession): AgentSessionRuntimeDiagnostic[] {
	return session.sessionManager
		.getDiagnostics()
		.filter((diagnostic) => diagnostic.message !== READ_ONLY_WARNING)
		.map((diagnostic) => ({ type: "warning", message: diagnostic.message }));
}

/**
 * Owns the current `AgentSession` and its services and replaces both on new / resume / fork /
 * import with one protocol: cancellable before-event, teardown (abort, `session_shutdown`,
 * invalidate, dispose), factory, rebind, `withSession`.
 */
export class AgentSessionRuntime {
	private current: AgentSession;
	private currentServices: AgentSessionServices;
	private currentDiagnostics: AgentSessionRuntimeDiagnostic[];
	private fallbackMessage: string | undefined;
	private readonly reported = new Set<string>();
	private rebind: ((session: AgentSession) => Promise<void>) | undefined;
	private beforeInvalidate: (() => void) | undefined;

	private constructor(
		private readonly factory: CreateAgentSessionRuntimeFactory,
		private readonly agentDir: string,
		created: Awaited<ReturnType<CreateAgentSessionRuntimeFactory>>,
	) {
		this.current = created.session;
		this.currentServices = created.services;
		this.currentDiagnostics = [...created.diagnostics, ...sessionFileDiagnostics(created.session)];
		this.fallbackMessage = created.modelFallbackMessage;
	}

	static async create(
		factory: CreateAgentSessionRuntimeFactory,
		initial: RuntimeTarget,
	): Promise<AgentSessionRuntime> {
		const cwd = resolve(initial.cwd);
		assertCwdExists(cwd);
		const created = await factory({
			cwd,
			agentDir: initial.agentDir,
			sessionManager: initial.sessionManager,
			...(initial.sessionStartEvent ? { sessionStartEvent: initial.sessionStartEvent } : {}),
		});
		return new AgentSessionRuntime(factory, initial.agentDir, created);
	}

	get session(): AgentSession {
		return this.current;
	}
	get services(): AgentSessionServices {
		return this.currentServices;
	}
	get cwd(): string {
		return this.currentServices.cwd;
	}
	get diagnostics(): readonly AgentSessionRuntimeDiagnostic[] {
		return this.currentDiagnostics;
	}
	get modelFallbackMessage(): string | undefined {
		return this.fallbackMessage;
	}

	/** Diagnostics not returned before (deduplicated by type and message across replacements). */
	takeUnreportedDiagnostics(): AgentSessionRuntimeDiagnostic[] {
		const fresh = this.currentDiagnostics.filter((diagnostic) => {
			const key = `${diagnostic.type}\0${diagnostic.message}`;
			if (this.reported.has(key)) return false;
			this.reported.add(key);
			return true;
		});
		return fresh;
	}

	/** Hosts re-bind extensions and re-subscribe here after every replacement (emits `session_start`). */
	setRebindSession(callback?: (session: AgentSession) => Promise<void>): void {
		this.rebind = callback;
	}

	/** Synchronous; runs after `session_shutdown`, before the old session is disposed. */
	setBeforeSessionInvalidate(callback?: () => void): void {
		this.beforeInvalidate = callback;
	}

	async newSession(
		options: {
			parentSession?: string;
			setup?: (sessionManager: SessionManager) => Promise<void>;
			withSession?: WithSession;
		} = {},
	): Promise<{ cancelled: boolean }> {
		if (await this.cancelledBy({ type: "session_before_switch", reason: "new" })) return { cancelled: true };
		const old = this.current.sessionManager;
		const target = old.isPersisted()
			? SessionManager.create(
					this.cwd,
					old.getSessionDir(),
					options.parentSession ? { parentSession: options.parentSession } : {},
					{ agentDir: this.agentDir },
				)
			: SessionManager.inMemory(this.cwd);
		const { setup } = options;
		await this.replace(target, "new", this.cwd, {
			...(options.withSession ? { withSession: options.withSession } : {}),
			// Seeds the built session (after its initial entries), before the host rebinds.
			...(setup
				? {
						afterCreate: async (session: AgentSession) => {
							await setup(session.sessionManager);
							session.refreshContext();
						},
					}
				: {}),
		});
		return { cancelled: false };
	}

	async switchSession(
		path: string,
		options: {
			cwdOverride?: string;
			withSession?: WithSession;
			/** The `project_trust` context for the target cwd (services are recreated there). */
			projectTrustContextFactory?: (cwd: string) => ProjectTrustContext;
		} = {},
	): Promise<{ cancelled: boolean }> {
		const file = resolve(path);
		if (await this.cancelledBy({ type: "session_before_switch", reason: "resume", targetSessionFile: file })) {
			return { cancelled: true };
		}
		const target = SessionManager.open(file, undefined, options.cwdOverride, { agentDir: this.agentDir });
		assertCwdExists(target.getCwd());
		const trust = options.projectTrustContextFactory?.(target.getCwd());
		await this.replace(target, "resume", target.getCwd(), {
			...(options.withSession ? { withSession: options.withSession } : {}),
			...(trust ? { projectTrustContext: trust } : {}),
		});
		return { cancelled: false };
	}

	async fork(
		entryId: string,
		options: { position?: "before" | "at"; withSession?: WithSession } = {},
	): Promise<{ cancelled: boolean; selectedText?: string }> {
		const position = options.position ?? "before";
		const source = this.current.sessionManager;
		const entry = source.getEntry(entryId);
		if (position === "before" && (entry?.type !== "message" || entry.message.role !== "user")) {
			throw new Error("Invalid entry ID for forking");
		}
		if (await this.cancelledBy({ type: "session_before_fork", entryId, position })) return { cancelled: true };
		const forked = forkSession(source, entryId, position, { agentDir: this.agentDir });
		await this.replace(
			forked.manager,
			"fork",
			this.cwd,
			options.withSession ? { withSession: options.withSession } : {},
		);
		return forked.editorText === undefined
			? { cancelled: false }
			: { cancelled: false, selectedText: forked.editorText };
	}

	async importFromJsonl(inputPath: string, cwdOverride?: string): Promise<{ cancelled: boolean }> {
		const source = resolve(inputPath);
		if (!existsSync(source)) throw new SessionImportFileNotFoundError(source);
		const destination = this.current.sessionManager.importSessionFile(source);
		const copied = destination !== source;
		if (await this.cancelledBy({ type: "session_before_switch", reason: "resume", targetSessionFile: destination })) {
			if (copied) rmSync(destination, { force: true });
			return { cancelled: true };
		}
		let target: SessionManager;
		try {
			target = SessionManager.open(destination, undefined, cwdOverride, { agentDir: this.agentDir });
			assertCwdExists(target.getCwd());
		} catch (error) {
			if (copied) rmSync(destination, { force: true });
			throw error;
		}
		await this.replace(target, "resume", target.getCwd());
		return { cancelled: false };
	}

	/** Abort, `session_shutdown {quit}`, dispose, then wait for in-flight credential writes. */
	async dispose(): Promise<void> {
		await this.teardown("quit");
		await this.currentServices.modelRuntime.settleCredentialWrites();
	}

	private async cancelledBy(event: { type: string; [key: string]: unknown }): Promise<boolean> {
		const runner = this.current.extensionRunner;
		if (!runner.hasHandlers(event.type)) return false;
		const result = (await runner.emit(event)) as SessionBeforeSwitchResult | SessionBeforeForkResult | undefined;
		return result?.cancel === true;
	}

	private async teardown(reason: ShutdownReason, targetSessionFile?: string): Promise<void> {
		const session = this.current;
		await session.abort().catch(() => undefined);
		const runner = session.extensionRunner;
		if (runner.hasHandlers("session_shutdown")) {
			await runner.emit({
				type: "session_shutdown",
				reason,
				...(targetSessionFile ? { targetSessionFile } : {}),
			});
		}
		this.beforeInvalidate?.();
		session.dispose();
	}

	private async replace(
		target: SessionManager,
		reason: "new" | "resume" | "fork",
		cwd: string,
		steps: ReplacementSteps = {},
	): Promise<void> {
		const { withSession, projectTrustContext, afterCreate } = steps;
		const previousSessionFile = this.current.sessionFile;
		await this.teardown(reason, target.getSessionFile());
		const sessionStartEvent: SessionStartEvent = {
			type: "session_start",
			reason,
			...(previousSessionFile ? { previousSessionFile } : {}),
		};
		const created = await this.factory({
			cwd,
			agentDir: this.agentDir,
			sessionManager: target,
			sessionStartEvent,
			...(projectTrustContext ? { projectTrustContext } : {}),
		});
		this.current = created.session;
		this.currentServices = created.services;
		this.currentDiagnostics = [...created.diagnostics, ...sessionFileDiagnostics(created.session)];
		this.fallbackMessage = created.modelFallbackMessage;
		await afterCreate?.(created.session);
		await this.rebind?.(created.session);
		await withSession?.(created.session.createReplacedSessionContext());
	}
}

/** Runs the factory once for the initial target and keeps it for later replacements. */
export function createAgentSessionRuntime(
	factory: CreateAgentSessionRuntimeFactory,
	initial: RuntimeTarget,
): Promise<AgentSessionRuntime> {
	return AgentSessionRuntime.create(factory, initial);
}
