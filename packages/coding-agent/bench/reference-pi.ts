// The CLI benchmark's contenders besides tau on this Node: tau and pi 1.6, both on the Node 22 that
// pi needs (scripts/pi-reference.mjs installs both once). TAU_PI_REFERENCE=0 leaves them out.
import { ensurePiReference } from "../../../scripts/pi-reference.mjs";
import type { Contender } from "./cli-harness.js";

export function referenceContenders(tauCli: string): { contenders: Contender[] } | { skipped: string } {
	const reference = ensurePiReference();
	if ("skipped" in reference) return reference;
	return {
		contenders: [
			{ label: "tau (node 22)", node: reference.node, cli: tauCli },
			{ label: "pi 1.6 (node 22)", node: reference.node, cli: reference.cli },
		],
	};
}
