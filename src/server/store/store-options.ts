import type { StoreFs } from './store-fs.js';

// The options a Store (store.ts) opens with: its data file, when its journal is folded, what it keeps.

export interface StoreOptions {
  file: string;
  fs?: StoreFs; // node:fs/promises when not given
  /** Fold the journal into the data file after at least this many changes, once it is as large as the file. */
  foldEvery?: number;
  /** Fold the journal, however few its changes, once it is this large (64 MiB). */
  foldBytes?: number;
  keepNotifications?: number; // kept at each fold (`--keep-notifications`), the oldest dropped; 0 keeps all
  /** `XDG_RUNTIME_DIR`, where this user's locks by inode meet (else a 0700 folder in the temp folder). */
  runtimeDir?: string;
  warn?: (message: string) => void;
}
