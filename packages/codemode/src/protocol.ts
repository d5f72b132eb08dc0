/**
 * Messages between the host (tool table, records, deadline) and the VM (QuickJS in a worker).
 * Every value that crosses is JSON text or a primitive, so nothing from one side can reach the other.
 */

export interface VmStartData {
	code: string;
	tools: { name: string; jsName: string; description: string }[];
	globals: { name: string; spread: boolean }[];
	memoryLimitBytes?: number;
	maxStackBytes: number;
	/** Store snapshot: key → JSON text. */
	store: Record<string, string>;
}

export type VmToHostMessage =
	| { type: "call"; id: number; target: "tool" | "global"; name: string; args?: string }
	| { type: "output"; item: VmOutputItem }
	| { type: "done"; ok: true; value?: string; writes: string }
	| { type: "done"; ok: false; error: string }
	| { type: "crash"; message: string };

export type VmOutputItem =
	| { type: "text"; text: string; console?: true }
	| { type: "image"; data: string; mimeType: string };

export interface HostToVmMessage {
	type: "result";
	id: number;
	ok: boolean;
	/** JSON text of the value when `ok`, else the error message. */
	payload?: string;
}

/** Where the VM runs. Replies posted before the VM is ready are queued by the channel. */
export interface VmChannel {
	post(message: HostToVmMessage): void;
	stop(): void;
}

/** Callbacks a VM launcher calls: each message from the VM, and a failure to start or of the transport. */
export interface VmEvents {
	message(message: unknown): void;
	/** The VM could not start or its transport failed. */
	failure(message: string): void;
}

/**
 * Starts a VM (worker thread by default) and returns the channel to talk to it; replaceable to run scripts elsewhere.
 */
export type VmLauncher = (start: VmStartData, events: VmEvents) => VmChannel;
