import type { JsonObject } from "@tau/ai";

export const NESTED_CALL_LIMITS = {
	maxCalls: 256,
	maxArgumentBytesPerCall: 8 * 1024,
	maxArgumentBytesTotal: 32 * 1024,
	maxErrorChars: 500,
} as const;

export interface NestedToolCallRecord {
	id: string;
	name: string;
	arguments?: JsonObject;
	/** Set instead of `arguments` when they were too large to record. */
	argumentsBytes?: number;
	status: "ok" | "error" | "unfinished";
	durationMs?: number;
	error?: string;
}

/** The bounded record attached to the root tool-result message as `nestedCalls`. */
export interface NestedToolCalls {
	calls: NestedToolCallRecord[];
	complete: boolean;
}

function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Records the nested calls under one root call. The limits bound the record only, never execution:
 * calls past `maxCalls` run but are not recorded, and oversized arguments become `argumentsBytes`.
 */
export class NestedCallRecorder {
	private readonly calls: NestedToolCallRecord[] = [];
	private readonly byId = new Map<string, NestedToolCallRecord>();
	private argumentBytes = 0;
	private omitted = false;

	start(id: string, name: string, args: unknown): void {
		if (this.calls.length >= NESTED_CALL_LIMITS.maxCalls) {
			this.omitted = true;
			return;
		}
		const record: NestedToolCallRecord = { id, name, status: "unfinished" };
		const json = JSON.stringify(args ?? {});
		const bytes = Buffer.byteLength(json, "utf8");
		if (
			!isJsonObject(args) ||
			bytes > NESTED_CALL_LIMITS.maxArgumentBytesPerCall ||
			this.argumentBytes + bytes > NESTED_CALL_LIMITS.maxArgumentBytesTotal
		) {
			record.argumentsBytes = bytes;
			this.omitted = true;
		} else {
			record.arguments = JSON.parse(json) as JsonObject;
			this.argumentBytes += bytes;
		}
		this.calls.push(record);
		this.byId.set(id, record);
	}

	finish(id: string, outcome: { isError: boolean; durationMs?: number; errorText?: string }): void {
		const record = this.byId.get(id);
		if (!record) return;
		record.status = outcome.isError ? "error" : "ok";
		if (outcome.durationMs !== undefined) record.durationMs = outcome.durationMs;
		if (outcome.isError && outcome.errorText !== undefined) {
			record.error = outcome.errorText.slice(0, NESTED_CALL_LIMITS.maxErrorChars);
		}
	}

	snapshot(): NestedToolCalls {
		const calls = this.calls.map((call) => ({ ...call }));
		return { calls, complete: !this.omitted && calls.every((call) => call.status !== "unfinished") };
	}
}
