/** The API report of one package (see api-report.mjs). */
export interface PackageReport {
	name: string;
	/** Where the report is checked in: `packages/<dir>/api-report.md`. */
	path: string;
	text: string;
	/** Exports whose declaration the report could not find, as `specifier: name`. */
	unknown: string[];
}
export function packageReport(packageDir: string): PackageReport;
export function allReports(): PackageReport[];
