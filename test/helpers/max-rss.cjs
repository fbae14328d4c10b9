'use strict';
// Preloaded with `node -r`: writes the process's peak resident memory (KiB) to $MAX_RSS_FILE as it exits,
// so a test can hold the CLI to a memory cap without any tool beyond Node.
const file = process.env.MAX_RSS_FILE;
if (file) process.on('exit', () => require('node:fs').writeFileSync(file, String(process.resourceUsage().maxRSS)));
