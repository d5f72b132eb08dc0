#!/usr/bin/env node
// A stand-in for the docker CLI: records every call in $FAKE_DOCKER_ROOT/calls.jsonl and emulates
// build/run/exec/cp/rm with one directory per container, so the docker backend's commands are tested
// without an engine. Container paths map to <root>/<container>/<path>; /logs maps to the mounted host dir.
import { spawnSync } from "node:child_process";
import {
	appendFileSync,
	cpSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

const root = process.env.FAKE_DOCKER_ROOT;
const args = process.argv.slice(2);
appendFileSync(join(root, "calls.jsonl"), `${JSON.stringify(args)}\n`);
const [command, ...rest] = args;

function container(name) {
	const dir = join(root, "containers", name);
	return { dir, state: JSON.parse(readFileSync(join(dir, ".state.json"), "utf8")) };
}

function hostPath(box, path) {
	if (path === "/logs" || path.startsWith("/logs/")) return box.state.logs + path.slice("/logs".length);
	return join(box.dir, path);
}

if (command === "build") {
	const context = rest.at(-1);
	if (existsSync(join(context, "FAIL_BUILD"))) {
		process.stderr.write('failed to solve: process "/bin/sh -c false" did not complete successfully\n');
		process.exit(1);
	}
	const tag = rest[rest.indexOf("-t") + 1];
	mkdirSync(join(root, "images"), { recursive: true });
	writeFileSync(join(root, "images", encodeURIComponent(tag)), context);
	process.stdout.write("sha256:fake\n");
} else if (command === "run") {
	const name = rest[rest.indexOf("--name") + 1];
	const mount = rest[rest.indexOf("-v") + 1];
	const image = rest[rest.indexOf("--entrypoint") + 2];
	const context = readFileSync(join(root, "images", encodeURIComponent(image)), "utf8");
	const dir = join(root, "containers", name);
	mkdirSync(join(dir, "app"), { recursive: true });
	// The image's WORKDIR /app holds the build context, as `COPY . /app` would.
	for (const entry of readdirSync(context)) {
		if (entry !== "Dockerfile") cpSync(join(context, entry), join(dir, "app", entry), { recursive: true });
	}
	writeFileSync(join(dir, ".state.json"), JSON.stringify({ logs: mount.slice(0, mount.lastIndexOf(":")) }));
	process.stdout.write(`${name}\n`);
} else if (command === "exec") {
	let i = 0;
	let workdir = "/app";
	const env = {};
	while (rest[i]?.startsWith("-")) {
		if (rest[i] === "-w") workdir = rest[++i];
		else if (rest[i] === "-e") {
			const [key, ...value] = rest[++i].split("=");
			env[key] = value.join("=");
		}
		i++;
	}
	const box = container(rest[i]);
	const [program, ...programArgs] = rest.slice(i + 1);
	if (program === "pwd") {
		process.stdout.write("/app\n");
		process.exit(0);
	}
	const mapped = programArgs.map((arg, position) =>
		arg.startsWith("/") && !(program === "sh" && position === 1) ? hostPath(box, arg) : arg,
	);
	for (const key of Object.keys(env)) if (env[key].startsWith("/")) env[key] = hostPath(box, env[key]);
	const result = spawnSync(program, mapped, {
		cwd: hostPath(box, workdir),
		env: { ...process.env, ...env },
		input: readFileSync(0),
		stdio: ["pipe", "inherit", "inherit"],
	});
	process.exit(result.status ?? 1);
} else if (command === "cp") {
	const [source, target] = rest;
	const [name, path] = target.split(":");
	const box = container(name);
	mkdirSync(dirname(hostPath(box, path)), { recursive: true });
	cpSync(source, hostPath(box, path), { recursive: true });
} else if (command === "rm") {
	rmSync(join(root, "containers", rest.at(-1)), { recursive: true, force: true });
} else {
	process.stderr.write(`fake docker: unsupported command ${command} (${basename(process.argv[1])})\n`);
	process.exit(2);
}
