export { ArminComponent } from "./armin.js";
export { BorderedLoader, DynamicBorder } from "./borders.js";
export {
	ExtensionEditorComponent,
	type ExtensionEditorOptions,
	ExtensionInputComponent,
	type ExtensionInputOptions,
	LoginDialogComponent,
	type SettingsCallbacks,
	type SettingsConfig,
	SettingsSelectorComponent,
} from "./dialogs.js";
export { FooterComponent } from "./footer-component.js";
export {
	AssistantMessageComponent,
	BashExecutionComponent,
	BranchSummaryMessageComponent,
	CompactionSummaryMessageComponent,
	CustomMessageComponent,
	SkillInvocationMessageComponent,
	ToolExecutionComponent,
	type ToolExecutionOptions,
	UserMessageComponent,
} from "./message-components.js";
export {
	type AuthSelectorProvider,
	ExtensionSelectorComponent,
	type ExtensionSelectorOptions,
	ModelSelectorComponent,
	OAuthSelectorComponent,
	SessionSelectorComponent,
	ShowImagesSelectorComponent,
	ThemeSelectorComponent,
	ThinkingSelectorComponent,
	TreeSelectorComponent,
	type UserMessageItem,
	UserMessageSelectorComponent,
} from "./pickers.js";
