/** RFC 8628 device authorization: poll the token endpoint until the user approves the code. */

export type DevicePollResult<T> =
	| { status: "done"; value: T }
	| { status: "pending" }
	| { status: "slow_down"; intervalSeconds?: number };

export interface DevicePollOptions<T> {
	provider: string;
	intervalSeconds: number;
	expiresInSeconds: number;
	signal?: AbortSignal;
	poll(): Promise<DevicePollResult<T>>;
}

/** RFC 8628 §3.5: `slow_down` adds five seconds unless the server names the new interval. */
const SLOW_DOWN_STEP_MS = 5_000;

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) return reject(new Error("Login cancelled"));
		const onAbort = () => {
			clearTimeout(timer);
			reject(new Error("Login cancelled"));
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}

/** Polls at the server's interval (first poll after one interval) until approval, denial or expiry. */
export async function pollDeviceCode<T>(options: DevicePollOptions<T>): Promise<T> {
	const deadline = Date.now() + options.expiresInSeconds * 1000;
	let intervalMs = Math.max(0, options.intervalSeconds * 1000);
	while (Date.now() < deadline) {
		await wait(Math.min(intervalMs, Math.max(0, deadline - Date.now())), options.signal);
		const result = await options.poll();
		if (result.status === "done") return result.value;
		if (result.status === "slow_down") {
			intervalMs = result.intervalSeconds ? result.intervalSeconds * 1000 : intervalMs + SLOW_DOWN_STEP_MS;
		}
	}
	throw new Error(`${options.provider} device code expired before it was approved; run the login again`);
}
