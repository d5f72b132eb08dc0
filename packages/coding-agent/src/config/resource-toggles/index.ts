export {
	isOverrideOf,
	nextProjectState,
	overrideState,
	type ProjectOverrideState,
} from "./override-entries.js";
export { projectPackageState, withPackageOverride, withProjectPackageState } from "./package-rules.js";
export { withProjectTopLevelState, withTopLevelOverride } from "./top-level-rules.js";
