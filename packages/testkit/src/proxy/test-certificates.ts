import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A throwaway certificate authority and a server certificate it signed for some host names. */
export interface TestCertificates {
	/** The CA certificate file (PEM), for `NODE_EXTRA_CA_CERTS`. */
	caFile: string;
	/** The server certificate and key (PEM), for a TLS server or an intercepting proxy. */
	cert: string;
	key: string;
}

/** True when the `openssl` command exists (Debian package `openssl`; scripts/install-test-tools.sh). */
export function opensslAvailable(): boolean {
	return spawnSync("openssl", ["version"], { stdio: "ignore" }).status === 0;
}

/**
 * Makes a CA valid for a day and a server certificate for `hosts` signed by it, with the `openssl`
 * command (node:crypto makes keys but not certificates), in a new temporary directory.
 */
export function createTestCertificates(hosts: readonly string[]): TestCertificates {
	const dir = mkdtempSync(join(tmpdir(), "tau-test-ca-"));
	const file = (name: string) => join(dir, name);
	const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
	const ecKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
	openssl("req", "-x509", ...ecKey, "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=tau test CA");
	openssl("req", ...ecKey, "-keyout", "server.key", "-out", "server.csr", "-subj", `/CN=${hosts[0] ?? "localhost"}`);
	writeFileSync(
		file("server.ext"),
		[
			`subjectAltName=${hosts.map((host) => (/^[\d.]+$/.test(host) ? `IP:${host}` : `DNS:${host}`)).join(",")}`,
			"basicConstraints=CA:FALSE",
			"keyUsage=digitalSignature",
			"extendedKeyUsage=serverAuth",
		].join("\n"),
	);
	openssl(
		"x509",
		"-req",
		"-in",
		"server.csr",
		"-CA",
		"ca.pem",
		"-CAkey",
		"ca.key",
		"-CAcreateserial",
		"-days",
		"1",
		"-extfile",
		"server.ext",
		"-out",
		"server.pem",
	);
	return {
		caFile: file("ca.pem"),
		cert: readFileSync(file("server.pem"), "utf8"),
		key: readFileSync(file("server.key"), "utf8"),
	};
}
