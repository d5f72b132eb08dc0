import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A fresh agent dir for one trial: only the user's `models.json` and `auth.json` are inherited, and
 * `settings.json` is the file named by `--settings` (else empty), so the user's other settings,
 * extensions, skills and sessions never leak into a measurement.
 */
export function createTrialAgentDir(target: string, userAgentDir: string, settingsFile?: string): string {
	mkdirSync(target, { recursive: true });
	for (const name of ["models.json", "auth.json"]) {
		const source = join(userAgentDir, name);
		if (existsSync(source)) copyFileSync(source, join(target, name));
	}
	if (settingsFile) copyFileSync(settingsFile, join(target, "settings.json"));
	else writeFileSync(join(target, "settings.json"), "{}\n");
	return target;
}
