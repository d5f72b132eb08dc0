import type { BashOperations } from "../../../tools/index.js";
import type { BashResult, UserBashEvent } from "../../api/events.js";
import type { DispatchHost } from "./dispatch-host.js";

/**
 * What to do with a user `!` command: run locally, run through extension operations, record a given
 * result, or abort (a handler failed or answered invalidly: fail-closed, never run locally).
 */
export type UserBashDecision =
	| { kind: "local" }
	| { kind: "operations"; operations: BashOperations }
	| { kind: "result"; result: BashResult }
	| { kind: "abort" };

function invalid(reason: string): Error {
	return new Error(`Invalid user_bash handler result: ${reason}`);
}

function validBashResult(result: unknown): result is BashResult {
	if (typeof result !== "object" || result === null) return false;
	const r = result as Record<string, unknown>;
	return (
		typeof r.output === "string" &&
		Object.hasOwn(r, "exitCode") &&
		(typeof r.exitCode === "number" || r.exitCode === undefined) &&
		typeof r.cancelled === "boolean" &&
		typeof r.truncated === "boolean" &&
		(r.fullOutputPath === undefined || typeof r.fullOutputPath === "string")
	);
}

function interpret(result: unknown): UserBashDecision {
	if (typeof result !== "object" || result === null) throw invalid("expected an object");
	const r = result as Record<string, unknown>;
	const hasOperations = r.operations !== undefined;
	const hasResult = r.result !== undefined;
	if (hasOperations === hasResult) throw invalid("return exactly one of `operations` or `result`");
	if (hasOperations) {
		const operations = r.operations as { exec?: unknown } | null;
		if (typeof operations !== "object" || operations === null || typeof operations.exec !== "function") {
			throw invalid("`operations` must be an object with an exec function");
		}
		return { kind: "operations", operations: r.operations as BashOperations };
	}
	if (!validBashResult(r.result)) {
		throw invalid(
			"`result` needs output (string), exitCode (number | undefined), cancelled and truncated (booleans)",
		);
	}
	return { kind: "result", result: r.result };
}

/** `user_bash`: the first non-`undefined` answer decides; a throw or an invalid answer aborts the command. */
export async function dispatchUserBash(host: DispatchHost, event: UserBashEvent): Promise<UserBashDecision> {
	const handlers = host.handlers("user_bash");
	if (handlers.length === 0) return { kind: "local" };
	const ctx = host.context();
	for (const { extensionPath, handler } of handlers) {
		try {
			const result = await handler(event, ctx);
			if (result === undefined) continue;
			return interpret(result);
		} catch (error) {
			host.report(extensionPath, "user_bash", error);
			return { kind: "abort" };
		}
	}
	return { kind: "local" };
}
