import type { OutStream } from '../context.js';
import { control } from './terminal.js';
import { cut } from './text.js';

/** A progress bar with count, rate and ETA on a terminal's stderr; silent elsewhere. */
export function progressBar(stream: OutStream, total: number, label: string) {
  const started = performance.now();
  let last = 0;
  let shown = false;
  const draw = (done: number) => {
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = rate > 0 ? Math.ceil((total - done) / rate) : 0;
    const width = 24;
    const filled = total > 0 ? Math.round((done / total) * width) : width;
    control(stream, 'clearLine');
    const bar = `[${'='.repeat(filled)}${' '.repeat(width - filled)}]`;
    const line = `${label} ${bar} ${done}/${total} ${rate.toFixed(0)}/s ETA ${eta}s`;
    // One line that fits, or clearing it would leave the wrapped part behind on the row above.
    stream.write(stream.columns ? cut(line, stream.columns - 1) : line);
    shown = true;
  };
  return {
    update(done: number) {
      const now = performance.now();
      if (now - last < 100 && done < total) return;
      last = now;
      draw(done);
    },
    clear() {
      if (shown) control(stream, 'clearLine');
    },
  };
}
