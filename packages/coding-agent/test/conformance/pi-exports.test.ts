import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * Export parity with pi 1.6 (docs/pi-compatibility.md): every runtime name a pi module exports
 * exists in its tau counterpart with the same kind, unless `differences.json` lists it with a
 * reason. The pi names come from the published packages (scripts/pi-api/extract-pi-exports.mjs).
 */

type Kind = "class" | "function" | "object" | "constant";
interface ModulePair {
	pi: string;
	tau: string;
	exports: Record<string, Kind>;
}

const data = JSON.parse(readFileSync(new URL("./pi-exports/pi-1.6-exports.json", import.meta.url), "utf8")) as {
	modules: ModulePair[];
};
const differences = JSON.parse(
	readFileSync(new URL("./pi-exports/differences.json", import.meta.url), "utf8"),
) as Record<string, Record<string, string>>;

// Literal specifiers so the source resolver (vitest.base.ts) maps each one to its package's src.
const tauModules: Record<string, () => Promise<Record<string, unknown>>> = {
	"@tau/coding-agent": () => import("@tau/coding-agent"),
	"@tau/ai": () => import("@tau/ai"),
	"@tau/ai/compat": () => import("@tau/ai/compat"),
	"@tau/tui": () => import("@tau/tui"),
	"@tau/agent": () => import("@tau/agent"),
};

function kindOf(value: unknown): Kind {
	if (typeof value === "function") {
		return /^class[\s{]/.test(Function.prototype.toString.call(value)) ? "class" : "function";
	}
	return typeof value === "object" && value !== null ? "object" : "constant";
}

/** The names of one module where tau differs from pi, with what differs. */
function mismatches(pair: ModulePair, namespace: Record<string, unknown>): Record<string, string> {
	const found: Record<string, string> = {};
	for (const [name, kind] of Object.entries(pair.exports)) {
		if (!(name in namespace)) found[name] = `missing (pi: ${kind})`;
		else if (kindOf(namespace[name]) !== kind) found[name] = `${kindOf(namespace[name])} (pi: ${kind})`;
	}
	return found;
}

describe("pi 1.6 export parity", () => {
	it("covers every pi module in the data", () => {
		expect(data.modules.map((pair) => pair.tau).sort()).toEqual(Object.keys(tauModules).sort());
	});

	for (const pair of data.modules) {
		describe(`${pair.pi} → ${pair.tau}`, () => {
			const listed = differences[pair.tau] ?? {};

			// The first import loads the package's whole module graph, which takes long on a busy machine.
			it("has every pi name with pi's kind, or a listed reason", async () => {
				const found = mismatches(pair, await tauModules[pair.tau]!());
				const unexplained = Object.entries(found)
					.filter(([name]) => !(name in listed))
					.map(([name, what]) => `${name}: ${what}`);
				expect(unexplained).toEqual([]);
			}, 120_000);

			it("lists no difference that is gone, and gives each a reason", async () => {
				const found = mismatches(pair, await tauModules[pair.tau]!());
				expect(Object.keys(listed).filter((name) => !(name in found))).toEqual([]);
				expect(Object.entries(listed).filter(([, reason]) => reason.trim().length < 10)).toEqual([]);
			});

			// Issue 15 closed the parity work: only deliberate differences remain, none marked pending.
			it("has no name left pending", () => {
				expect(Object.entries(listed).filter(([, reason]) => reason.startsWith("pending:"))).toEqual([]);
			});
		});
	}
});
