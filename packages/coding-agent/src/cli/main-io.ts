/** Where the CLI writes: the process streams, or a test's capture. */
export interface MainIO {
	stdout: (text: string) => void;
	stderr: (text: string) => void;
}
