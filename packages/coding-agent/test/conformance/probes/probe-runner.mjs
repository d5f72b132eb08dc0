// Runs behaviour probes against a package given by path, in a process of its own (pi 1.6 needs
// Node 22). Reads `{ entry, calls: [{ probe, input }] }` as JSON from stdin and prints the answers.
import { pathToFileURL } from "node:url";
import { PROBES } from "./behaviour-probes.mjs";

let text = "";
for await (const chunk of process.stdin) text += chunk;
const { entry, calls } = JSON.parse(text);
const api = await import(pathToFileURL(entry).href);
const answers = [];
for (const { probe, input } of calls) answers.push(await PROBES[probe](api, input));
process.stdout.write(JSON.stringify(answers));
