#!/usr/bin/env node
// Runs a scripted mock LLM server on 127.0.0.1 and prints its base URL on stdout.
// Usage: mock-llm --scenario <file.json> [--port N] [--api-key KEY] [--idle-timeout MS] [--max-lifetime MS]
import { fstatSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startMockLlmServer } from "../dist/index.js";

const USAGE = `usage: mock-llm --scenario <file.json> [--port N] [--api-key KEY] [--idle-timeout MS] [--max-lifetime MS]

The scenario file is either an array of replies or an object:
  { "replies": [ { "text": "Hello" }, ... ], "repeat": true, "apiKey": "k",
    "idleTimeoutMs": 300000, "maxLifetimeMs": 1800000 }
With "repeat", the replies are served in a cycle; otherwise each is used once.
The server exits on SIGINT/SIGTERM, when a piped stdin closes, or when its lifetime ends.`;

function fail(message) {
	process.stderr.write(`mock-llm: ${message}\n\n${USAGE}\n`);
	process.exit(2);
}

function numberOption(value, name) {
	if (value === undefined) return undefined;
	const number = Number(value);
	if (!Number.isInteger(number) || number < 0) fail(`${name} must be a non-negative integer`);
	return number;
}

let args;
try {
	args = parseArgs({
		options: {
			scenario: { type: "string" },
			port: { type: "string" },
			"api-key": { type: "string" },
			"idle-timeout": { type: "string" },
			"max-lifetime": { type: "string" },
			help: { type: "boolean" },
		},
	}).values;
} catch (error) {
	fail(error.message);
}
if (args.help) {
	process.stdout.write(`${USAGE}\n`);
	process.exit(0);
}
if (args.scenario === undefined) fail("--scenario is required");

let scenario;
try {
	scenario = JSON.parse(readFileSync(args.scenario, "utf8"));
} catch (error) {
	fail(`cannot read scenario ${args.scenario}: ${error.message}`);
}
if (Array.isArray(scenario)) scenario = { replies: scenario };
if (typeof scenario !== "object" || scenario === null || !Array.isArray(scenario.replies)) {
	fail('the scenario must be an array of replies or an object with a "replies" array');
}

const replies = scenario.replies;
let next = 0;
const server = await startMockLlmServer({
	apiKey: args["api-key"] ?? scenario.apiKey,
	port: numberOption(args.port, "--port"),
	idleTimeoutMs: numberOption(args["idle-timeout"], "--idle-timeout") ?? scenario.idleTimeoutMs,
	maxLifetimeMs: numberOption(args["max-lifetime"], "--max-lifetime") ?? scenario.maxLifetimeMs,
	keepProcessAlive: true,
	...(scenario.repeat && replies.length > 0 ? { factory: () => replies[next++ % replies.length] } : { replies }),
});
process.stdout.write(`${server.baseUrl}\n`);

const shutdown = () => {
	server.close().then(() => process.exit(0));
};
process.once("SIGINT", shutdown);
process.once("SIGTERM", shutdown);
server.closed.then(() => process.exit(0));

// Only a pipe signals "the parent is gone" by closing; a TTY or /dev/null stdin is not watched.
const stdin = fstatSync(0);
if (stdin.isFIFO() || stdin.isSocket()) {
	process.stdin.on("end", shutdown);
	process.stdin.on("close", shutdown);
	process.stdin.resume();
}
