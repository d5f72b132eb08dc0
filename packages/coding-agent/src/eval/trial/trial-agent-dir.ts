import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A fresh agent dir for one trial: only the user's `models.json` is copied in (credentials are read
 * from the user's own `auth.json`, see run-trial.ts), and `settings.json` is the file named by
 * `--settings` (else empty), so the user's other settings, extensions, skills and sessions never leak
 * into a measurement.
 */
export function createTrialAgentDir(target: string, userAgentDir: string, settingsFile?: string): string {
	mkdirSync(target, { recursive: true });
	const models = join(userAgentDir, "models.json");
	if (existsSync(models)) copyFileSync(models, join(target, "models.json"));
	if (settingsFile) copyFileSync(settingsFile, join(target, "settings.json"));
	else writeFileSync(join(target, "settings.json"), "{}\n");
	return target;
}
