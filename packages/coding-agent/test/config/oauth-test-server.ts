import { type MockOAuthServer, type MockOAuthServerOptions, startMockOAuthServer } from "@tau/testkit";
import { afterEach, beforeEach, vi } from "vitest";

/**
 * Gives each test of the file a fresh @tau/testkit OAuth mock that tau's sign-ins reach through
 * `TAU_TEST_OAUTH_ORIGIN`, handing each one started to `use`; `restart` replaces it with one started
 * with other options.
 */
export function mockOAuthServerPerTest(use: (server: MockOAuthServer) => void): {
	restart(options: MockOAuthServerOptions): Promise<void>;
} {
	let current: MockOAuthServer | undefined;
	const start = async (options?: MockOAuthServerOptions) => {
		current = await startMockOAuthServer(options);
		vi.stubEnv("TAU_TEST_OAUTH_ORIGIN", current.origin);
		use(current);
	};
	beforeEach(() => start());
	afterEach(async () => {
		vi.unstubAllEnvs();
		await current?.close();
	});
	return {
		async restart(options) {
			await current?.close();
			await start(options);
		},
	};
}
