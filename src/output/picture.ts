import { formatAgeBand } from '../core/ages.js';
import { meet } from '../core/interpret.js';
import { plainDecimal } from '../core/number.js';
import type { RangeLike } from '../core/ranges.js';
import type { Rec } from '../formats/json/record.js';
import { displayWidth, pad, visible } from './text.js';
import type { Theme } from './theme.js';

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** Who a band is for: `male 18–120 y`, `all 0–3 d`, `all ages`. */
export function bandLabel(r: RangeLike): string {
  const who = r.sex && r.sex !== 'all' ? r.sex : 'all';
  if (r.ageMin === undefined && r.ageMax === undefined) return who === 'all' ? 'all ages' : who;
  return `${who} ${formatAgeBand(r.ageMin, r.ageMax)}`;
}

/**
 * The reference and panic ranges of a numeric measure on one horizontal scale, one line per band:
 * `[====]` the reference range, `!` what lies beyond the critical limits, `·` the rest, labelled below in the
 * unit. Readable without color; colored at a terminal. Undefined when there is nothing to draw.
 */
export function rangePicture(m: Rec, width: number, t: Theme): string | undefined {
  if (m.type !== undefined && m.type !== 'numeric' && m.type !== 'numeric-breakdown') return undefined;
  const bands = ((Array.isArray(m.referenceRanges) ? m.referenceRanges : []) as RangeLike[]).filter(
    (r) => r && (finite(r.min) || finite(r.max)),
  );
  if (bands.length === 0) return undefined;
  const panics = ((Array.isArray(m.panicRanges) ? m.panicRanges : []) as RangeLike[]).filter(
    (p) => p && (finite(p.min) || finite(p.max)),
  );
  const values = [...bands, ...panics].flatMap((r) => [r.min, r.max].filter(finite));
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) [lo, hi] = [lo - 1, hi + 1];
  const margin = (hi - lo) * 0.12;
  const [from, to] = [lo - margin, hi + margin];
  const labels = bands.map(bandLabel);
  const labelWidth = Math.min(24, Math.max(...labels.map(displayWidth)));
  const bar = Math.max(20, Math.min(64, (Number.isFinite(width) ? width : 80) - labelWidth - 4));
  const at = (v: number) => Math.round(((v - from) / (to - from)) * (bar - 1));

  const lines = bands.map((band, i) => {
    const cells: { ch: string; tone?: 'green' | 'red' }[] = Array.from({ length: bar }, () => ({ ch: '·' }));
    for (const p of panics.filter((x) => meet(x, band))) {
      // Critical limits: what lies below the low limit and above the high one is critical.
      if (finite(p.min)) for (let k = 0; k < at(p.min); k++) cells[k] = { ch: '!', tone: 'red' };
      if (finite(p.max)) for (let k = at(p.max) + 1; k < bar; k++) cells[k] = { ch: '!', tone: 'red' };
    }
    const a = finite(band.min) ? at(band.min) : 0;
    const b = finite(band.max) ? at(band.max) : bar - 1;
    for (let k = a; k <= b; k++) cells[k] = { ch: '=', tone: 'green' };
    if (finite(band.min)) cells[a] = { ch: '[', tone: 'green' };
    if (finite(band.max)) cells[b] = { ch: ']', tone: 'green' };
    const drawn = cells.map((c) => (c.tone ? t[c.tone](c.ch) : c.ch)).join('');
    return `  ${pad(labels[i], labelWidth)}  ${drawn}`;
  });

  // The scale: each bound once, written where it falls, skipped when it would touch the one before.
  const marks = [...new Set(values)].sort((x, y) => x - y);
  let axis = '';
  for (const v of marks) {
    const text = plainDecimal(v);
    const start = Math.min(Math.max(0, at(v) - Math.floor(text.length / 2)), bar - text.length);
    if (start < axis.length + 1 && axis.length > 0) continue;
    axis = axis.padEnd(start) + text;
  }
  const unit = typeof m.unit === 'string' && m.unit ? ` (${visible(m.unit, true)})` : '';
  return [t.bold(`Range picture${unit}`), ...lines, `  ${' '.repeat(labelWidth)}  ${t.dim(axis)}`, ''].join('\n');
}
