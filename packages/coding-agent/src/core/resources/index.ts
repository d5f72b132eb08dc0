export {
	CONTEXT_FILE_CANDIDATES,
	type ContextFile,
	discoverContextFiles,
	loadProjectContextFiles,
} from "./context-files/context-files.js";
export {
	type Frontmatter,
	type ParsedFrontmatter,
	parseFrontmatter,
	stripFrontmatter,
} from "./frontmatter/frontmatter.js";
export { parseYaml, type YamlResult, type YamlValue } from "./frontmatter/yaml-subset.js";
export { expandResourceCommands } from "./input-expansion.js";
export type {
	ExtensionFactoryLike,
	ExtensionLoadError,
	ExtensionLoadItem,
	ExtensionLoadRequest,
	InlineExtension,
	LoadExtensions,
	LoadExtensionsResult,
	LoadedExtension,
} from "./loader/extension-set.js";
export { isSyntheticPath, pathKey } from "./loader/path-key.js";
export {
	DefaultResourceLoader,
	type DefaultResourceLoaderOptions,
	type ReloadOptions,
	type ResourceLoader,
} from "./loader/resource-loader.js";
export { type InstallLocation, packageInstallLocation } from "./packages/install-paths.js";
export { isNewerVersion, satisfiesVersion } from "./packages/npm-versions.js";
export { type ChangelogVersionStore, extensionPackageUpdates } from "./packages/package-changelog.js";
export {
	installAndPersist,
	listPackages,
	normalizePackageSourceForSettings,
	type PackageCommandContext,
	type PackageCommandSettings,
	removePackage,
} from "./packages/package-commands.js";
export {
	detectPackageManager,
	PackageInstaller,
	type PackageInstallerOptions,
	type PackageManagerKind,
	type PackageProgressEvent,
} from "./packages/package-installer.js";
export {
	PackageResolver,
	type PackageResolverOptions,
	type ResolvedPaths,
	type ResolvedResource,
} from "./packages/package-resolver.js";
export { collectPackageResources, type PackageResources } from "./packages/package-resources.js";
export { type PackageSourceKind, type ParsedPackageSource, parsePackageSource } from "./packages/package-source.js";
export {
	checkForAvailableUpdates,
	type PackageUpdateOptions,
	type PackageUpdateReport,
	updateMarkerPath,
	updatePackages,
} from "./packages/package-updater.js";
export { applyPatterns, isEnabledByOverrides } from "./packages/resource-patterns.js";
export { parseCommandArgs, substituteArgs } from "./prompt-templates/arguments.js";
export {
	expandPromptTemplate,
	loadPromptTemplateFromFile,
	loadPromptTemplates,
	type PromptTemplate,
} from "./prompt-templates/prompt-templates.js";
export {
	type LoadSkillsFromDirOptions,
	type LoadSkillsOptions,
	type LoadSkillsResult,
	loadSkills,
	loadSkillsFromDir,
} from "./skills/load-skills.js";
export {
	escapeXml,
	expandSkillCommand,
	formatSkillsForPrompt,
	type SkillExpansion,
	type SkillReader,
} from "./skills/skill-prompt.js";
export { loadSkillFromFile, loadSkillsFromSources, type Skill, type SkillSource } from "./skills/skills.js";
export {
	type BuildSystemPromptOptions,
	buildSystemPrompt,
	buildSystemPromptSections,
	buildSystemPromptState,
	DEFAULT_SELECTED_TOOLS,
	normalizeBuildSystemPromptOptions,
	type SystemPromptSections,
} from "./system-prompt/system-prompt.js";
export { createSystemPromptUpdate, diffSystemPromptSections } from "./system-prompt/system-prompt-diff.js";
export { resolveThemeColor, type ThemeColor } from "./themes/theme-colors.js";
export {
	detectTerminalAppearance,
	loadThemeFromFile,
	loadThemes,
	OPTIONAL_THEME_TOKENS,
	parseThemeSetting,
	REQUIRED_THEME_TOKENS,
	type Theme,
	validateTheme,
} from "./themes/themes.js";
export {
	hasTrustRequiringProjectResources,
	projectAgentsSkillDirs,
	TRUST_REQUIRING_ENTRIES,
} from "./trust/project-resources.js";
export {
	createProjectTrustResolver,
	ProjectTrustCache,
	type ProjectTrustFlowOptions,
} from "./trust/trust-flow.js";
export type {
	PathMetadata,
	ResourceCollision,
	ResourceDiagnostic,
	ResourceExtensionPaths,
	ResourceScope,
	ResourceType,
	SourceInfo,
} from "./types.js";
