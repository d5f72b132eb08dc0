// Prints the closing line of ./test.sh from vitest's JSON report and the number of failed gates.
import { existsSync, readFileSync } from "node:fs";

const [reportPath, gateFailuresArg, vitestRcArg] = process.argv.slice(2);
const gateFailures = Number(gateFailuresArg ?? 0);
const vitestRc = Number(vitestRcArg ?? 0);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(reportPath)) {
	const report = JSON.parse(readFileSync(reportPath, "utf8"));
	passed = report.numPassedTests ?? 0;
	failed = report.numFailedTests ?? 0;
	skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
	// A test file that fails to load has no failed tests but is a failure all the same.
	for (const file of report.testResults ?? []) {
		if (file.status === "failed" && (file.assertionResults ?? []).every((t) => t.status !== "failed")) failed += 1;
	}
} else if (vitestRc !== 0) {
	failed += 1;
}
failed += gateFailures;
if (vitestRc !== 0 && failed === 0) failed = 1;

const line = `tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
console.log(line);
process.exit(failed > 0 ? 1 : 0);
