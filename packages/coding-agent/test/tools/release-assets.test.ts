import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { extractFromTarGz, extractFromZip } from "../../src/core/tools/search/release-archive.js";
import { pickReleaseAsset, type ReleaseAsset, releaseTarget } from "../../src/core/tools/search/release-assets.js";
import { tarGz, zip } from "./release-fixtures.js";

function assets(prefix: string, triples: string[]): ReleaseAsset[] {
	return triples.flatMap((triple) => {
		const archive = triple.includes("windows") ? "zip" : "tar.gz";
		const name = `${prefix}-${triple}.${archive}`;
		return [`${name}.sha256`, name].map((file) => ({
			name: file,
			browser_download_url: `https://example.test/${file}`,
		}));
	});
}

// The asset lists of real releases (plus their checksum files and Debian packages).
const RIPGREP_14 = [
	...assets("ripgrep-14.1.1", [
		"aarch64-apple-darwin",
		"aarch64-unknown-linux-gnu",
		"armv7-unknown-linux-gnueabihf",
		"armv7-unknown-linux-musleabihf",
		"i686-pc-windows-msvc",
		"i686-unknown-linux-gnu",
		"powerpc64-unknown-linux-gnu",
		"s390x-unknown-linux-gnu",
		"x86_64-apple-darwin",
		"x86_64-pc-windows-gnu",
		"x86_64-pc-windows-msvc",
		"x86_64-unknown-linux-musl",
	]),
	{ name: "ripgrep_14.1.1-1_amd64.deb", browser_download_url: "https://example.test/ripgrep_14.1.1-1_amd64.deb" },
];
const RIPGREP_15 = assets("ripgrep-15.1.0", [
	"aarch64-apple-darwin",
	"aarch64-pc-windows-msvc",
	"aarch64-unknown-linux-gnu",
	"aarch64-unknown-linux-musl",
	"x86_64-apple-darwin",
	"x86_64-pc-windows-msvc",
	"x86_64-unknown-linux-musl",
]);
const FD_10 = assets("fd-v10.2.0", [
	"aarch64-apple-darwin",
	"aarch64-pc-windows-msvc",
	"aarch64-unknown-linux-gnu",
	"aarch64-unknown-linux-musl",
	"i686-pc-windows-msvc",
	"i686-unknown-linux-musl",
	"x86_64-apple-darwin",
	"x86_64-pc-windows-gnu",
	"x86_64-pc-windows-msvc",
	"x86_64-unknown-linux-gnu",
	"x86_64-unknown-linux-musl",
]);

describe("release asset selection", () => {
	const rows: [
		name: "rg" | "fd",
		release: ReleaseAsset[],
		platform: string,
		arch: string,
		asset: string | undefined,
	][] = [
		["rg", RIPGREP_14, "linux", "x64", "ripgrep-14.1.1-x86_64-unknown-linux-musl.tar.gz"],
		// ripgrep 14 has no aarch64 musl build: the glibc one, never an x86-64 one.
		["rg", RIPGREP_14, "linux", "arm64", "ripgrep-14.1.1-aarch64-unknown-linux-gnu.tar.gz"],
		["rg", RIPGREP_15, "linux", "arm64", "ripgrep-15.1.0-aarch64-unknown-linux-musl.tar.gz"],
		["rg", RIPGREP_14, "darwin", "x64", "ripgrep-14.1.1-x86_64-apple-darwin.tar.gz"],
		["rg", RIPGREP_14, "darwin", "arm64", "ripgrep-14.1.1-aarch64-apple-darwin.tar.gz"],
		["rg", RIPGREP_14, "win32", "x64", "ripgrep-14.1.1-x86_64-pc-windows-msvc.zip"],
		// No Windows arm64 build in ripgrep 14: nothing rather than the x86-64 one.
		["rg", RIPGREP_14, "win32", "arm64", undefined],
		["rg", RIPGREP_15, "win32", "arm64", "ripgrep-15.1.0-aarch64-pc-windows-msvc.zip"],
		["fd", FD_10, "linux", "x64", "fd-v10.2.0-x86_64-unknown-linux-musl.tar.gz"],
		["fd", FD_10, "linux", "arm64", "fd-v10.2.0-aarch64-unknown-linux-musl.tar.gz"],
		["fd", FD_10, "darwin", "x64", "fd-v10.2.0-x86_64-apple-darwin.tar.gz"],
		["fd", FD_10, "darwin", "arm64", "fd-v10.2.0-aarch64-apple-darwin.tar.gz"],
		["fd", FD_10, "win32", "x64", "fd-v10.2.0-x86_64-pc-windows-msvc.zip"],
		["fd", FD_10, "win32", "arm64", "fd-v10.2.0-aarch64-pc-windows-msvc.zip"],
		// A ripgrep release list never satisfies fd (and vice versa).
		["fd", RIPGREP_14, "linux", "x64", undefined],
	];
	it.each(rows)("%s on %s/%s picks the right archive", (name, release, platform, arch, expected) => {
		const resolved = releaseTarget(name, { platform, arch, env: {} });
		if (!("target" in resolved)) throw new Error(`unexpected skip: ${JSON.stringify(resolved)}`);
		expect(pickReleaseAsset(name, release, resolved.target)?.name).toBe(expected);
	});

	it("names the executable inside the archive per platform", () => {
		const executable = (platform: string) => {
			const resolved = releaseTarget("rg", { platform, arch: "x64", env: {} });
			return "target" in resolved ? resolved.target.executable : undefined;
		};
		expect([executable("linux"), executable("darwin"), executable("win32")]).toEqual(["rg", "rg", "rg.exe"]);
	});

	it("skips other CPUs and systems instead of falling back to x86-64", () => {
		expect(releaseTarget("rg", { platform: "linux", arch: "ia32", env: {} })).toEqual({
			skip: "no ripgrep download for linux/ia32",
		});
		expect(releaseTarget("fd", { platform: "linux", arch: "riscv64", env: {} })).toEqual({
			skip: "no fd download for linux/riscv64",
		});
		expect(releaseTarget("rg", { platform: "freebsd", arch: "x64", env: {} })).toEqual({
			skip: "no ripgrep download for freebsd/x64",
		});
	});

	it("skips Termux with the package to install", () => {
		expect(releaseTarget("rg", { platform: "android", arch: "arm64", env: {} })).toEqual({
			skip: "on Termux install it with `pkg install ripgrep`",
		});
		expect(releaseTarget("fd", { platform: "linux", arch: "arm64", env: { TERMUX_VERSION: "0.118.0" } })).toEqual({
			skip: "on Termux install it with `pkg install fd`",
		});
		expect(
			releaseTarget("rg", { platform: "linux", arch: "arm64", env: { PREFIX: "/data/data/com.termux/files/usr" } }),
		).toEqual({ skip: "on Termux install it with `pkg install ripgrep`" });
	});
});

describe("release archive extraction", () => {
	const binary = Buffer.from("#!/bin/sh\necho rg\n");

	it("takes the binary out of a .tar.gz, whatever the directory", () => {
		const archive = tarGz([
			{ name: "ripgrep-14.1.1-x86_64-unknown-linux-musl/" },
			{ name: "ripgrep-14.1.1-x86_64-unknown-linux-musl/doc/rg.1", content: "man page\n" },
			{ name: "ripgrep-14.1.1-x86_64-unknown-linux-musl/complete/rg.bash", content: "complete\n" },
			{ name: "ripgrep-14.1.1-x86_64-unknown-linux-musl/rg", content: binary, mode: 0o755 },
		]);
		expect(extractFromTarGz(archive, "rg")).toEqual(binary);
	});

	it("reads long names from pax, GNU and ustar prefix headers", () => {
		const deep = `${"d".repeat(80)}/${"e".repeat(40)}/fd`;
		for (const longNames of ["pax", "gnu", "prefix"] as const) {
			const archive = tarGz(
				[
					{ name: `${"x".repeat(90)}/${"y".repeat(30)}/not-fd`, content: "other" },
					{ name: deep, content: binary },
				],
				{ longNames },
			);
			expect(extractFromTarGz(archive, "fd"), longNames).toEqual(binary);
		}
	});

	it("takes the binary out of a deflated or stored .zip", () => {
		const entries = [
			{ name: "fd-v10.2.0-x86_64-pc-windows-msvc/" },
			{ name: "fd-v10.2.0-x86_64-pc-windows-msvc/README.md", content: "readme" },
			{ name: "fd-v10.2.0-x86_64-pc-windows-msvc/fd.exe", content: binary },
		];
		expect(extractFromZip(zip(entries), "fd.exe")).toEqual(binary);
		expect(extractFromZip(zip(entries, { store: true }), "fd.exe")).toEqual(binary);
		expect(extractFromZip(zip([{ name: "rg-dir\\rg.exe", content: binary }]), "rg.exe")).toEqual(binary);
	});

	it("rejects archives without the binary", () => {
		expect(() => extractFromTarGz(tarGz([{ name: "dir/rga", content: "x" }]), "rg")).toThrow(
			"rg not found in the archive",
		);
		expect(() => extractFromZip(zip([{ name: "dir/rg.exe/" }]), "rg.exe")).toThrow("rg.exe not found in the archive");
	});

	it("rejects corrupt archives", () => {
		expect(() => extractFromTarGz(Buffer.from("not gzip at all"), "rg")).toThrow();
		const tar = tarGz([{ name: "dir/rg", content: binary }]);
		// Valid gzip around a damaged tar header: the checksum no longer matches.
		const damaged = gunzipSync(tar);
		damaged[0] = "z".charCodeAt(0);
		expect(() => extractFromTarGz(gzipSync(damaged), "rg")).toThrow("corrupt tar header");
		const truncatedTar = gunzipSync(tar).subarray(0, 520);
		expect(() => extractFromTarGz(gzipSync(truncatedTar), "rg")).toThrow("truncated tar archive");

		expect(() => extractFromZip(Buffer.from("no end record here, just bytes"), "rg.exe")).toThrow(
			"not a zip archive",
		);
		const archive = zip([{ name: "dir/rg.exe", content: binary }]);
		// Damage the deflated data so it inflates to something else (or not at all).
		const broken = Buffer.from(archive);
		broken.fill(0xff, 30 + "dir/rg.exe".length, 34 + "dir/rg.exe".length);
		expect(() => extractFromZip(broken, "rg.exe")).toThrow();
	});
});
