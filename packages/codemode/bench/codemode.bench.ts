import { CodemodeSandbox } from "@tau/codemode";
import type { Bench } from "../../../scripts/bench/api.js";

const ROUND_TRIPS = 200;

/** Script startup (new worker + QuickJS VM per run) and host↔VM tool-call round trips. */
const bench: Bench = async (ctx) => {
	const sandbox = new CodemodeSandbox({ tools: [{ name: "echo", execute: (args) => args }] });
	await ctx.time("codemode: run `return 1` (worker + VM startup)", () => sandbox.execute("return 1"), {
		iterations: 20,
		warmup: 2,
	});
	const perCall: number[] = [];
	for (let i = 0; i < 10; i++) {
		const started = performance.now();
		const result = await sandbox.execute(
			`for (let i = 0; i < ${ROUND_TRIPS}; i++) await tools.echo({ i }); return 1`,
		);
		const elapsed = performance.now() - started;
		if (!result.ok) throw new Error(result.error.message);
		const startup = performance.now();
		await sandbox.execute("return 1");
		perCall.push((elapsed - (performance.now() - startup)) / ROUND_TRIPS);
	}
	ctx.record("codemode: sequential nested call round trip", "ms", perCall);
	await sandbox.close();
};

export default bench;
