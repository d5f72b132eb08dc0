// Terminal layer

// Markdown lexing: the `marked` class tau's Markdown component parses with (pi-tui re-exports it).
export { Marked, type Token, type Tokens } from "marked";
// Autocomplete
export type {
	AutocompleteItem,
	AutocompleteProvider,
	AutocompleteSuggestions,
	CompletionResult,
	SlashCommand,
} from "./autocomplete/autocomplete.js";
export { CombinedAutocompleteProvider } from "./autocomplete/combined-provider.js";
// Capabilities
export {
	type CapabilityOverrides,
	detectCapabilities,
	getCapabilities,
	getTerminalColorMode,
	type ImageProtocol,
	resetCapabilitiesCache,
	setCapabilities,
	setCapabilityOverrides,
	type TerminalCapabilities,
} from "./capabilities/capabilities.js";
export { type CellDimensions, getCellDimensions, setCellDimensions } from "./capabilities/cell-size.js";
// Clipboard
export { getNativeClipboard, type NativeClipboard } from "./clipboard/native-clipboard.js";
export {
	type ClipboardContent,
	type ClipboardReader,
	pathsFromUriList,
	systemClipboardReader,
} from "./clipboard/system-clipboard.js";
// Colours
export {
	backgroundAnsi,
	foregroundAnsi,
	styleText,
	styleTextWithAnsi,
	type TerminalColorMode,
	type TextAttributes,
	type TextStyle,
} from "./colors/ansi.js";
export {
	type Color,
	type ColorMixSpace,
	colorToHex,
	colorToOkhsl,
	colorToOklch,
	colorToRgb,
	type IndexedColor,
	indexedColor,
	mixColors,
	type OkhslChannels,
	type OklchChannels,
	type OklchColorValue,
	okhslColor,
	oklchColor,
	parseColor,
	type RgbColorValue,
	rgbColor,
} from "./colors/color.js";
export { oklabToOkhslLightness } from "./colors/oklab.js";
// Components
export { Box } from "./components/box.js";
export { Editor } from "./components/editor/editor.js";
export type { EditorComponent, EditorOptions, EditorTheme } from "./components/editor/editor-component.js";
export { Input, type InputOptions } from "./components/input.js";
export { CancellableLoader, Loader, type LoaderIndicator } from "./components/loader.js";
export { Markdown } from "./components/markdown/markdown.js";
export { type RenderLatexOptions, renderLatex } from "./components/markdown/render-latex.js";
export type { DefaultTextStyle, MarkdownOptions, MarkdownTheme } from "./components/markdown/theme.js";
export { MouseRegion } from "./components/mouse-region.js";
export { type SelectItem, SelectList, type SelectListLayout, type SelectListTheme } from "./components/select-list.js";
export { type SettingItem, SettingsList, type SettingsListTheme } from "./components/settings-list.js";
export { Spacer } from "./components/spacer.js";
export { Text } from "./components/text.js";
export { TruncatedText } from "./components/truncated-text.js";
// Images
export {
	DEFAULT_IMAGE_DIMENSIONS,
	getGifDimensions,
	getImageDimensions,
	getJpegDimensions,
	getPngDimensions,
	getWebpDimensions,
	type ImageDimensions,
} from "./images/dimensions.js";
export {
	deleteAllKittyImages,
	deleteKittyImage,
	deleteKittyPlacements,
	encodeITerm2,
	encodeKitty,
	type ITerm2ImageOptions,
	type KittyImageOptions,
} from "./images/encoders.js";
export {
	Image,
	type ImageOptions,
	type ImageTheme,
	type ImageTranscoder,
	imageFallback,
	setImageTranscoder,
} from "./images/image.js";
export { calculateImageRows, type ImageCellSize } from "./images/image-size.js";
export { allocateImageId, type ImageRenderOptions, type RenderedImage, renderImage } from "./images/render-image.js";
export { type BaseKey, isValidKeyId, Key, type KeyId } from "./keys/key-id.js";
export {
	getKeybindings,
	getSelectPageIndex,
	type KeybindingDefinition,
	type KeybindingDefinitions,
	type Keybindings,
	KeybindingsManager,
	setKeybindings,
	TUI_KEYBINDINGS,
	type UserKeybindings,
} from "./keys/keybindings.js";
// Keys
export { isKittyProtocolActive, setKittyProtocolActive } from "./keys/kitty-state.js";
export { matchesKey } from "./keys/match-key.js";
export { decodeKittyPrintable, decodePrintableKey, isKeyRelease, isKeyRepeat, parseKey } from "./keys/parse-key.js";
export { LayoutFrameContext, type LayoutRegion } from "./layout/layout-frame.js";
export { ScrollView, type ScrollViewOptions } from "./layout/scroll-view.js";
export { allocateSizes, HStack, type StackEntry, type StackOptions, VStack } from "./layout/stack.js";
export {
	isAppleTerminalSession,
	normalizeNativeShiftEnterInput,
	ProcessTerminal,
	type ProcessTerminalOptions,
	type TerminalInput,
	type TerminalOutput,
} from "./terminal/process-terminal.js";
export { formatProgramStatus, PROGRAM_STATUS_QUERY, type ProgramStatus } from "./terminal/program-status.js";
export { StdinBuffer, type StdinBufferOptions } from "./terminal/stdin-buffer.js";
export type { Terminal } from "./terminal/terminal.js";
export { TerminalSequences } from "./terminal/terminal.js";
// Text utilities
export { hyperlink, replaceControlCharacters, stripTerminalSequences } from "./text/ansi.js";
export { type FuzzyMatch, fuzzyFilter, fuzzyMatch } from "./text/fuzzy.js";
export { type SanitizeOptions, sanitizeTerminalText } from "./text/sanitize.js";
export { extractSegments, getOsc8LinkAtColumn, normalizeTerminalOutput } from "./text/segments.js";
export { applyBackgroundToLine, sliceByColumn, sliceWithWidth, truncateToWidth } from "./text/truncate.js";
export { visibleWidth } from "./text/width.js";
export { wrapTextWithAnsi } from "./text/wrap.js";
// Alternate screen and layout
export { isViewportTUI, TuiAltScreen, type TuiAltScreenOptions, type ViewportTUI } from "./tui/alt-screen.js";
// Component model and TUI
export {
	type Component,
	CURSOR_MARKER,
	FAKE_CURSOR_END,
	FAKE_CURSOR_START,
	type Focusable,
	isFocusable,
	renderFakeCursor,
	type TuiMouseButton,
	type TuiMouseEvent,
	type TuiMouseEventResult,
	type TuiMouseEventType,
} from "./tui/component.js";
export { type ChildLines, Container, renderChildLines } from "./tui/container.js";
export { LazyContainer, type LazyContainerOptions } from "./tui/lazy-container.js";
export { TuiMainScreen } from "./tui/main-screen.js";
export {
	compositeTuiLine,
	type OverlayAnchor,
	type OverlayBounds,
	type OverlayMargin,
	type OverlayOptions,
	type SizeValue,
} from "./tui/overlay-layout.js";
export {
	parseTerminalColor,
	parseTerminalColorSchemeReport,
	type RgbColor,
	type TerminalColorScheme,
	type TerminalColors,
} from "./tui/terminal-colors.js";
export {
	type InputListener,
	type InputListenerResult,
	MIN_RENDER_INTERVAL_MS,
	type OverlayHandle,
	type TUI,
	type TuiMode,
} from "./tui/tui-base.js";
