import type { AuthInteraction, AuthNotification, AuthPrompt } from "@tau/ai";

/** What a scripted user did during a sign-in, for assertions. */
export interface UserLog {
	notices: AuthNotification[];
	prompts: AuthPrompt[];
}

/** A pasted answer waits until the flow stops asking (the code arrived another way). */
function untilCancelled(prompt: AuthPrompt): Promise<string> {
	return new Promise((_resolve, reject) => {
		const signal = prompt.type === "manual_code" ? prompt.signal : undefined;
		signal?.addEventListener("abort", () => reject(new Error("prompt no longer needed")), { once: true });
	});
}

/**
 * A user at a browser on this machine: picks `method`, opens the sign-in address (the testkit server
 * redirects the browser to the loopback callback) and never types a code.
 */
export function browserUser(method: string | undefined, log: UserLog = { notices: [], prompts: [] }): AuthInteraction {
	return {
		async prompt(prompt) {
			log.prompts.push(prompt);
			if (prompt.type === "select") return method ?? prompt.options[0]!.value;
			if (prompt.type === "text") return "";
			return untilCancelled(prompt);
		},
		async notify(notice) {
			log.notices.push(notice);
			if (notice.type === "auth_url") {
				const response = await fetch(notice.url);
				if (!response.ok) throw new Error(`callback answered ${response.status}: ${await response.text()}`);
			}
		},
	};
}

/**
 * A user whose browser is on another machine: opens the address there, and pastes what the browser
 * ended on (the redirect URL, or `code#state` as Anthropic's copy page shows it).
 */
export function pastingUser(method: string, paste: (redirect: URL) => string): AuthInteraction {
	let redirect: Promise<URL> | undefined;
	return {
		async prompt(prompt) {
			if (prompt.type === "select") return method;
			if (prompt.type === "manual_code") return paste(await redirect!);
			return "";
		},
		notify(notice) {
			if (notice.type !== "auth_url") return;
			redirect = fetch(notice.url, { redirect: "manual" }).then(
				(response) => new URL(response.headers.get("location")!),
			);
		},
	};
}
