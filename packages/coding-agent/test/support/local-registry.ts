import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/** The manifest fields npm needs to resolve and install a version. */
const MANIFEST_FIELDS = [
	"name",
	"version",
	"dependencies",
	"optionalDependencies",
	"peerDependencies",
	"peerDependenciesMeta",
	"bin",
	"engines",
	"os",
	"cpu",
] as const;

interface LockEntry {
	version?: string;
	link?: boolean;
	dev?: boolean;
}

export interface LocalRegistry {
	url: string;
	close(): Promise<void>;
}

/**
 * An npm registry on 127.0.0.1 that serves the packages already installed in `repo`'s node_modules
 * (every version its package-lock.json records), so installs from tarballs run without a network.
 * Tarballs are made on request from the installed folders; anything else answers 404.
 */
export async function startLocalRegistry(repo: string): Promise<LocalRegistry> {
	const lock = JSON.parse(readFileSync(join(repo, "package-lock.json"), "utf8")) as {
		packages: Record<string, LockEntry>;
	};
	const folders = new Map<string, Map<string, string>>();
	/** The hoisted (top-level) version of each name: what `latest` means here. */
	const latest = new Map<string, string>();
	for (const [path, entry] of Object.entries(lock.packages)) {
		const name = path.split("node_modules/").at(-1);
		if (!path.includes("node_modules/") || !name || !entry.version || entry.link) continue;
		const dir = join(repo, path);
		if (!existsSync(join(dir, "package.json"))) continue;
		if (!folders.has(name)) folders.set(name, new Map());
		folders.get(name)!.set(entry.version, dir);
		if (path === `node_modules/${name}` || !latest.has(name)) latest.set(name, entry.version);
	}

	const server: Server = createServer((request, response) => {
		const path = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname).slice(1);
		const tarball = /^(.+)\/-\/(.+)\.tgz$/.exec(path);
		if (tarball) {
			const dir = folders.get(tarball[1]!)?.get(tarball[2]!);
			if (!dir) return void response.writeHead(404).end();
			response.writeHead(200, { "content-type": "application/octet-stream" });
			const tar = spawn("tar", [
				"-czf",
				"-",
				"--exclude=./node_modules",
				"--transform",
				"s,^\\.,package,",
				"-C",
				dir,
				".",
			]);
			tar.stdout.pipe(response);
			return;
		}
		const versions = folders.get(path);
		if (!versions) return void response.writeHead(404).end();
		const { port } = server.address() as AddressInfo;
		const packument = {
			name: path,
			"dist-tags": { latest: latest.get(path) },
			versions: Object.fromEntries(
				[...versions].map(([version, dir]) => {
					const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
					const fields = Object.fromEntries(
						MANIFEST_FIELDS.filter((key) => key in manifest).map((key) => [key, manifest[key]]),
					);
					const tarballUrl = `http://127.0.0.1:${port}/${encodeURIComponent(path)}/-/${version}.tgz`;
					return [version, { ...fields, dist: { tarball: tarballUrl } }];
				}),
			),
		};
		response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(packument));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
