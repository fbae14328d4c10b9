import { readdirSync, readFileSync } from 'node:fs';

/**
 * Processes running with `TMPDIR=tmp` in their environment, but this process's children: the ones a test
 * started with that TMPDIR and left behind (a process keeps the environment it started with).
 */
export function leftProcesses(tmp: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    if (Number(pid) === process.pid) continue;
    try {
      // Vitest's own workers are closed after its teardown; a process one of them started is not.
      if (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(process.pid)) continue;
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      if (!env.includes(`TMPDIR=${tmp}`)) continue;
      found.push(`${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()}`);
    } catch {
      // Gone meanwhile, or another user's: neither was started by this run.
    }
  }
  return found;
}
