/** What the test process sends its serve child, once, over the IPC channel: serve's own words, never a shell's. */
export interface ChildStart {
  /** serve's options after `serve`, as its command line takes them (tokens too: they never reach ps). */
  args: string[];
  /** The data file; undefined for a temporary one the child removes when it stops. */
  dataFile?: string;
  /** The state to start from as JSON text, read by `serve --load -` from the child's stdin. */
  seed?: string;
}

/** What the child answers: the URL once serve listens, or serve's exit code and last words if it never did. */
export type ChildNews = { ready: string; dataFile: string; folder: string } | { failed: number; stderr: string };
