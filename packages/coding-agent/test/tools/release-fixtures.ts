import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { crc32, deflateRawSync, gzipSync } from "node:zlib";
import { afterEach } from "vitest";

/** One file (or directory, name ending in `/`) of a test archive. */
export interface ArchiveEntry {
	name: string;
	content?: string | Buffer;
	mode?: number;
}

const BLOCK = 512;

function tarHeader(name: string, size: number, type: string, mode: number, prefix = ""): Buffer {
	const header = Buffer.alloc(BLOCK);
	header.write(name.slice(0, 100), 0, "utf8");
	header.write(prefix, 345, "utf8");
	header.write(`${mode.toString(8).padStart(7, "0")}\0`, 100);
	header.write("0000000\0", 108);
	header.write("0000000\0", 116);
	header.write(`${size.toString(8).padStart(11, "0")}\0`, 124);
	header.write(`${Math.floor(Date.UTC(2026, 0, 1) / 1000).toString(8)}\0`, 136);
	header.fill(0x20, 148, 156);
	header.write(type, 156);
	header.write("ustar\0", 257);
	header.write("00", 263);
	let sum = 0;
	for (const byte of header) sum += byte;
	header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
	return header;
}

function padded(data: Buffer): Buffer[] {
	const rest = data.length % BLOCK;
	return rest === 0 ? [data] : [data, Buffer.alloc(BLOCK - rest)];
}

/** A pax record is `<length> <key>=<value>\n`, where the length counts its own digits. */
function paxRecord(key: string, value: string): string {
	const body = ` ${key}=${value}\n`;
	let length = body.length + 1;
	while (`${length}${body}`.length !== length) length = `${length}${body}`.length;
	return `${length}${body}`;
}

/**
 * A `.tar.gz` of the entries. Names over 100 bytes get a pax `path` header, a GNU `L` header
 * (`longNames: "gnu"`) or are split into the ustar prefix field (`longNames: "prefix"`), as real
 * archivers write them.
 */
export function tarGz(entries: ArchiveEntry[], options: { longNames?: "pax" | "gnu" | "prefix" } = {}): Buffer {
	const blocks: Buffer[] = [];
	for (const entry of entries) {
		const isDirectory = entry.name.endsWith("/");
		const data = Buffer.from(entry.content ?? "");
		if (Buffer.byteLength(entry.name) > 100 && options.longNames === "prefix") {
			const split = entry.name.lastIndexOf("/", entry.name.length - 2);
			const header = tarHeader(
				entry.name.slice(split + 1),
				data.length,
				"0",
				entry.mode ?? 0o644,
				entry.name.slice(0, split),
			);
			blocks.push(header, ...padded(data));
			continue;
		} else if (Buffer.byteLength(entry.name) > 100) {
			const longName =
				options.longNames === "gnu" ? Buffer.from(`${entry.name}\0`) : Buffer.from(paxRecord("path", entry.name));
			const type = options.longNames === "gnu" ? "L" : "x";
			blocks.push(
				tarHeader(options.longNames === "gnu" ? "././@LongLink" : "PaxHeader", longName.length, type, 0o644),
			);
			blocks.push(...padded(longName));
		}
		blocks.push(tarHeader(entry.name, isDirectory ? 0 : data.length, isDirectory ? "5" : "0", entry.mode ?? 0o644));
		if (!isDirectory) blocks.push(...padded(data));
	}
	blocks.push(Buffer.alloc(BLOCK * 2));
	return gzipSync(Buffer.concat(blocks));
}

/** A `.zip` of the entries, deflated unless `store` is set. */
export function zip(entries: ArchiveEntry[], options: { store?: boolean } = {}): Buffer {
	const locals: Buffer[] = [];
	const centrals: Buffer[] = [];
	let offset = 0;
	for (const entry of entries) {
		const name = Buffer.from(entry.name);
		const data = Buffer.from(entry.content ?? "");
		const method = options.store || entry.name.endsWith("/") ? 0 : 8;
		const stored = method === 8 ? deflateRawSync(data) : data;
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(20, 4);
		local.writeUInt16LE(method, 8);
		local.writeUInt32LE(crc32(data), 14);
		local.writeUInt32LE(stored.length, 18);
		local.writeUInt32LE(data.length, 22);
		local.writeUInt16LE(name.length, 26);
		const central = Buffer.alloc(46);
		central.writeUInt32LE(0x02014b50, 0);
		central.writeUInt16LE(20, 4);
		central.writeUInt16LE(20, 6);
		central.writeUInt16LE(method, 10);
		central.writeUInt32LE(crc32(data), 16);
		central.writeUInt32LE(stored.length, 20);
		central.writeUInt32LE(data.length, 24);
		central.writeUInt16LE(name.length, 28);
		central.writeUInt32LE(offset, 42);
		locals.push(local, name, stored);
		centrals.push(central, name);
		offset += local.length + name.length + stored.length;
	}
	const directory = Buffer.concat(centrals);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(entries.length, 8);
	end.writeUInt16LE(entries.length, 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...locals, directory, end]);
}

/**
 * A stand-in for a released rg/fd: a shell script that answers `--version`/`--help` like the real
 * tool and otherwise prints one result that only it produces, so a test can tell who searched.
 */
export function fakeSearchBinary(name: "rg" | "fd"): string {
	const result =
		name === "rg"
			? `{"type":"match","data":{"path":{"text":"./fake.txt"},"lines":{"text":"from the downloaded rg\\n"},"line_number":7}}`
			: "from-the-downloaded-fd.txt";
	return [
		"#!/bin/sh",
		'case "$1" in',
		`--version) echo "${name} 99.0.0" ;;`,
		'--help) echo "--no-require-git" ;;',
		`*) printf '%s\\n' '${result}' ;;`,
		"esac",
		"",
	].join("\n");
}

/** How the fake GitHub answers. */
export type ReleaseServerMode =
	| "ok"
	| "metadata-404"
	| "asset-404"
	| "corrupt-archive"
	| "binary-does-not-run"
	| "never-answer";

export interface ReleaseServer {
	/** The API root to inject as `apiBaseUrl`. */
	url: string;
	/** Every request path, in arrival order. */
	requests: string[];
	/** Resolves at the next request (for tests that need to act while a download is in flight). */
	nextRequest(): Promise<string>;
}

const REPOSITORIES = { rg: "BurntSushi/ripgrep", fd: "sharkdp/fd" } as const;
const servers: Server[] = [];

afterEach(async () => {
	for (const server of servers.splice(0)) {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
});

/**
 * A 127.0.0.1 server playing GitHub for one tool: `/repos/<owner>/<repo>/releases/latest` lists an
 * asset for the given triple, served as a `.tar.gz` holding `<dir>/<name>` (the fake binary).
 */
export async function startReleaseServer(
	name: "rg" | "fd",
	triple: string,
	mode: ReleaseServerMode = "ok",
): Promise<ReleaseServer> {
	const requests: string[] = [];
	const waiting: ((path: string) => void)[] = [];
	const prefix = name === "rg" ? "ripgrep-99.0.0" : "fd-v99.0.0";
	const assetName = `${prefix}-${triple}.tar.gz`;
	const archive =
		mode === "corrupt-archive"
			? Buffer.from("this is not gzip")
			: tarGz([
					{ name: `${prefix}-${triple}/` },
					{ name: `${prefix}-${triple}/README.md`, content: "readme\n" },
					{
						name: `${prefix}-${triple}/${name}`,
						content: mode === "binary-does-not-run" ? Buffer.from([0, 1, 2, 3]) : fakeSearchBinary(name),
						mode: 0o755,
					},
				]);
	const server = createServer((request: IncomingMessage, response: ServerResponse) => {
		const path = request.url ?? "";
		requests.push(path);
		for (const resolve of waiting.splice(0)) resolve(path);
		if (mode === "never-answer") return;
		const address = server.address() as AddressInfo;
		if (path === `/repos/${REPOSITORIES[name]}/releases/latest` && mode !== "metadata-404") {
			response.setHeader("content-type", "application/json");
			response.end(
				JSON.stringify({
					tag_name: "99.0.0",
					assets: [
						{
							name: `${assetName}.sha256`,
							browser_download_url: `http://127.0.0.1:${address.port}/sha/${assetName}`,
						},
						{ name: assetName, browser_download_url: `http://127.0.0.1:${address.port}/download/${assetName}` },
					],
				}),
			);
		} else if (path === `/download/${assetName}` && mode !== "asset-404") {
			response.setHeader("content-type", "application/octet-stream");
			response.end(archive);
		} else {
			response.statusCode = 404;
			response.end("Not Found");
		}
	});
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
	};
}
