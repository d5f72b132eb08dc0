/**
 * Where a sign-in flow sends its requests. `TAU_TEST_OAUTH_ORIGIN` exists for tests only (docs/providers.md):
 * when set, every OAuth endpoint `https://host/path` (and a Radius gateway's catalog) becomes `<origin>/host/path`, so one @tau/testkit
 * server can stand in for every provider's authorization, token and device endpoints, and loopback
 * callback servers take a free port instead of the provider's registered one.
 */
const TEST_ORIGIN_VARIABLE = "TAU_TEST_OAUTH_ORIGIN";

function testOrigin(): string | undefined {
	const origin = process.env[TEST_ORIGIN_VARIABLE];
	return origin ? origin.replace(/\/+$/, "") : undefined;
}

export function oauthEndpoint(url: string): string {
	const origin = testOrigin();
	if (!origin) return url;
	const parsed = new URL(url);
	return `${origin}/${parsed.host}${parsed.pathname}${parsed.search}`;
}

/** The provider's registered callback port, or any free port under the test override. */
export function callbackPort(registered: number): number {
	return testOrigin() ? 0 : registered;
}
