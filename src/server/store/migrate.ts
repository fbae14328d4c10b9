import { migrateMeasure } from '../../schemas/ages-legacy.js';
import { DATA_FORMAT, type DataFile } from '../../schemas/data-file.js';
import type { JournalEntry } from './journal.js';

/**
 * Moves the measures of a format 1 data file (no formatVersion), and the journal lines written beside it,
 * to format 2 in place: each band's ends read as the old form wrote them and stored as exact years
 * [ageMin, ageMax) (schemas/ages-legacy.ts). Returns how many measures hold an age band.
 */
export function migrateToFormat2(data: DataFile, journal: JournalEntry[] = []): number {
  const measures: Record<string, unknown>[] = [...data.diagnosticMeasures];
  for (const entry of journal) {
    if ('reset' in entry) measures.push(...entry.reset.diagnosticMeasures);
    else if (entry.coll === 'diagnosticMeasures' && entry.after) measures.push(entry.after);
  }
  let banded = 0;
  for (const m of measures) if (migrateMeasure(m)) banded++;
  data.formatVersion = DATA_FORMAT;
  return banded;
}
