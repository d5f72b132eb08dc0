/**
 * Which HTTP(S) proxy a request goes through, from the conventional environment variables
 * (docs/providers.md, "Proxies and TLS inspection"). The rules are those of undici's
 * `EnvHttpProxyAgent`, which carries every `fetch` once a proxy is set, so requests made over other
 * HTTP stacks (the AWS SDK's) take the same route: the lower-case name wins over the upper-case one,
 * an `https:` target falls back to the HTTP proxy, and `NO_PROXY` lists hosts (optionally with a port)
 * that go direct, each also covering its subdomains; `*` means every host.
 */

/** The environment to read: `process.env` or a request's own env layered over it. */
export type ProxyEnv = Readonly<Record<string, string | undefined>>;

export interface ProxySettings {
	/** Proxy for `http:` targets. */
	http: string | undefined;
	/** Proxy for `https:` targets (the HTTP proxy when only that is set). */
	https: string | undefined;
	/** The `NO_PROXY` list, trimmed ("" when unset). */
	noProxy: string;
}

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

function pick(env: ProxyEnv, name: string): string | undefined {
	return env[name.toLowerCase()] || env[name.toUpperCase()] || undefined;
}

/** The proxy variables in `env`. */
export function proxySettings(env: ProxyEnv = process.env): ProxySettings {
	const http = pick(env, "http_proxy");
	return { http, https: pick(env, "https_proxy") ?? http, noProxy: (pick(env, "no_proxy") ?? "").trim() };
}

function bypasses(noProxy: string, hostname: string, port: number): boolean {
	if (noProxy === "*") return true;
	return noProxy.split(/[,\s]/).some((entry) => {
		if (!entry) return false;
		const withPort = /^(.+):(\d+)$/.exec(entry);
		if (withPort && Number(withPort[2]) !== port) return false;
		const host = (withPort?.[1] ?? entry).replace(/^\*?\./, "").toLowerCase();
		return hostname === host || hostname.endsWith(`.${host}`);
	});
}

/** The proxy URL a request to `target` goes through, or undefined when it goes direct. */
export function proxyForUrl(target: string | URL, env: ProxyEnv = process.env): string | undefined {
	let url: URL;
	try {
		url = new URL(target);
	} catch {
		return undefined;
	}
	const settings = proxySettings(env);
	const proxy = url.protocol === "https:" ? settings.https : url.protocol === "http:" ? settings.http : undefined;
	if (proxy === undefined) return undefined;
	// `host` keeps an IPv6 address in brackets, as NO_PROXY entries write it.
	const hostname = url.host.replace(/:\d*$/, "").toLowerCase();
	const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
	return bypasses(settings.noProxy, hostname, port) ? undefined : proxy;
}
