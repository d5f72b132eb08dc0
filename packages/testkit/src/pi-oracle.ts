import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

/**
 * pi 1.6 as an oracle for differential tests (docs/testkit.md "Differential tests against pi"): the same
 * list of function calls runs through a pi package in pi's own Node 22 (one child process per list) and
 * through the tau module in the test process, and the encoded results are compared.
 *
 * ./test.sh installs the reference (scripts/pi-reference.mjs) and passes `TAU_PI_NODE` and `TAU_PI_CLI`;
 * without them the oracle is unavailable and says why, so a test can skip with that reason.
 */

/** One call: `fn` is an export of the module, or a dotted path into one (`Key.ctrl`). */
export interface OracleCall {
	fn: string;
	args: readonly unknown[];
}

/** The encoded return value, or the message of what the call threw. */
export type OracleResult = { value: unknown } | { error: string };

/** Where the pi 1.6 reference is (its Node and package root), or why it is not available so a test can skip. */
export type PiOracle = { available: true; node: string; root: string } | { available: false; reason: string };

/** Where the pi reference is, from the environment ./test.sh sets. */
export function piOracle(env: NodeJS.ProcessEnv = process.env): PiOracle {
	const node = env.TAU_PI_NODE ?? "";
	const cli = env.TAU_PI_CLI ?? "";
	if (!node || !cli) return { available: false, reason: "TAU_PI_NODE/TAU_PI_CLI not set (run ./test.sh)" };
	if (!existsSync(node) || !existsSync(cli)) return { available: false, reason: "the pi reference is not installed" };
	// The CLI lives at <root>/node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js.
	return { available: true, node, root: resolve(cli, "../../../../../..") };
}

/**
 * JSON-safe form of any value, so results from two processes compare with `toEqual`: `undefined`,
 * non-finite numbers, -0, byte arrays, functions, maps, sets and class instances get tagged shapes.
 * Self-contained (its source is sent to the pi child as is).
 */
export function encodeOracleValue(value: unknown): unknown {
	const seen = new Set<object>();
	const walk = (item: unknown): unknown => {
		if (item === undefined) return { $undefined: true };
		if (typeof item === "number") {
			if (Number.isNaN(item) || !Number.isFinite(item)) return { $number: String(item) };
			return Object.is(item, -0) ? { $number: "-0" } : item;
		}
		if (typeof item === "bigint") return { $bigint: String(item) };
		if (typeof item === "function") return { $function: item.name };
		if (typeof item === "symbol") return { $symbol: String(item.description) };
		if (item === null || typeof item !== "object") return item;
		if (seen.has(item)) return { $circular: true };
		seen.add(item);
		try {
			if (item instanceof Uint8Array) return { $bytes: Buffer.from(item).toString("base64") };
			if (item instanceof Error) return { $error: item.message };
			if (Array.isArray(item)) return item.map(walk);
			if (item instanceof Map) return { $map: [...item.entries()].map(([k, v]) => [walk(k), walk(v)]) };
			if (item instanceof Set) return { $set: [...item].map(walk) };
			const out: Record<string, unknown> = {};
			const proto = Object.getPrototypeOf(item);
			if (proto !== Object.prototype && proto !== null) out.$class = proto.constructor?.name;
			for (const key of Object.keys(item).sort()) out[key] = walk((item as Record<string, unknown>)[key]);
			return out;
		} finally {
			seen.delete(item);
		}
	};
	return walk(value);
}

/** `{ $undefined: true }` in arguments stands for `undefined` (JSON cannot carry it). */
export function decodeOracleArgument(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(decodeOracleArgument);
	if (value === null || typeof value !== "object") return value;
	if ((value as { $undefined?: unknown }).$undefined === true) return undefined;
	return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, decodeOracleArgument(item)]));
}

/** Runs the calls in order against `namespace` (later calls see state earlier ones set). */
export async function runOracleCalls(
	namespace: Record<string, unknown>,
	calls: readonly OracleCall[],
): Promise<OracleResult[]> {
	const results: OracleResult[] = [];
	for (const call of calls) {
		try {
			const path = call.fn.split(".");
			const owner = path.slice(0, -1).reduce<any>((object, key) => object[key], namespace);
			const fn = owner[path.at(-1)!];
			if (typeof fn !== "function") throw new Error(`not a function: ${call.fn}`);
			const value = await fn.apply(owner, call.args.map(decodeOracleArgument));
			results.push({ value: encodeOracleValue(value) });
		} catch (error) {
			// Inline, not errorMessage(): pi's child runs this function from its source text, where an
			// imported helper (renamed by the test transform) does not exist.
			results.push({ error: error instanceof Error ? error.message : String(error) });
		}
	}
	return results;
}

const CHILD_SCRIPT = `
const { readFileSync } = await import("node:fs");
const encodeOracleValue = ${encodeOracleValue.toString()};
const decodeOracleArgument = ${decodeOracleArgument.toString()};
const runOracleCalls = ${runOracleCalls.toString()};
const input = JSON.parse(readFileSync(0, "utf8"));
const namespace = await import(input.module);
process.stdout.write(JSON.stringify(await runOracleCalls(namespace, input.calls)));
`;

/** Options of `callPi`: the child's environment, a normalizer for both sides' results and Node options. */
export interface CallPiOptions {
	/** The child's whole environment (default: only PATH and HOME). */
	env?: Record<string, string>;
	/** Applied to both sides' results before they are compared. */
	normalize?: OracleNormalizer;
	/** Node options for the child, e.g. `["--stack-size=4000"]`. */
	nodeArgs?: readonly string[];
}

/** Runs the calls against `specifier` (e.g. `@earendil-works/pi-tui`) in one pi child process. */
export function callPi(
	oracle: Extract<PiOracle, { available: true }>,
	specifier: string,
	calls: readonly OracleCall[],
	options: CallPiOptions = {},
): OracleResult[] {
	const output = execFileSync(oracle.node, [...(options.nodeArgs ?? []), "--input-type=module", "-e", CHILD_SCRIPT], {
		cwd: oracle.root,
		input: JSON.stringify({ module: specifier, calls }),
		env: options.env ?? { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
		encoding: "utf8",
		maxBuffer: 256 * 1024 * 1024,
	});
	return JSON.parse(output) as OracleResult[];
}

/**
 * Rewrites a result's JSON text before comparison: for differences that are not tau's (a newer Node's
 * error wording) or that tau makes on purpose, each excluded with its reason at the call site.
 */
export type OracleNormalizer = (json: string, side: "pi" | "tau") => string;

/** One call whose results differ between pi and tau, with both answers. */
export interface OracleDifference {
	call: OracleCall;
	pi: OracleResult;
	tau: OracleResult | undefined;
}

/** The calls whose results differ, each with both answers, for a readable failure. */
export function oracleDifferences(
	calls: readonly OracleCall[],
	expected: readonly OracleResult[],
	actual: readonly OracleResult[],
	normalize: OracleNormalizer = (json) => json,
): OracleDifference[] {
	return calls
		.map((call, index) => ({ call, pi: expected[index]!, tau: actual[index] }))
		.filter(({ pi, tau }) => normalize(JSON.stringify(pi), "pi") !== normalize(JSON.stringify(tau), "tau"));
}

/** Runs the calls through pi and through `namespace` (tau's module) and returns where they differ. */
export async function differencesFromPi(
	oracle: Extract<PiOracle, { available: true }>,
	specifier: string,
	namespace: object,
	calls: readonly OracleCall[],
	options: CallPiOptions = {},
): Promise<OracleDifference[]> {
	const expected = callPi(oracle, specifier, calls, options);
	const actual = await runOracleCalls(namespace as Record<string, unknown>, calls);
	return oracleDifferences(calls, expected, actual, options.normalize);
}

/** A test title that carries the reason when the oracle is missing (the suite then skips). */
export function oracleTitle(oracle: PiOracle, title: string): string {
	return oracle.available ? title : `${title} (skipped: ${oracle.reason})`;
}

/**
 * Throws unless tau's module answers every call as pi does; the error lists the first differences with
 * both answers. For a suite skipped when the oracle is unavailable.
 */
export async function expectSameAnswersAsPi(
	oracle: PiOracle,
	specifier: string,
	namespace: object,
	calls: readonly OracleCall[],
	options: CallPiOptions = {},
): Promise<void> {
	if (!oracle.available) throw new Error(`pi oracle unavailable: ${oracle.reason}`);
	const differences = await differencesFromPi(oracle, specifier, namespace, calls, options);
	if (differences.length === 0) return;
	const shown = JSON.stringify(differences.slice(0, 10), null, 2);
	throw new Error(`${differences.length} of ${calls.length} calls answer differently from pi; the first:\n${shown}`);
}
