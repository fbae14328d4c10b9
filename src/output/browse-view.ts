import { age } from '../core/notifications.js';
import { valueText } from '../core/number.js';
import { ShortIds } from '../core/short-ids.js';
import { epochMs } from '../resources/time.js';
import type { Browse, BrowseNote } from './browse-model.js';
import { localTime } from './columns.js';
import { chunks, cut, displayWidth, pad, visible } from './text.js';
import type { Theme } from './theme.js';
import { wrapText } from './wrap.js';

// The screen of `notifications browse`: a header, the list, the selected notification's detail, a status
// line and the keys, laid out to the terminal's size. Only the rows on screen are drawn, so 10,000
// notifications cost what 24 do. Every text from the server goes through visible(), as everywhere else.

// The keys, whole from 100 columns; below, short enough for 80, and the detail's scroll keys said on the
// status line while the pane has more than it shows.
const KEYS = '↑↓/jk  PgUp/Dn  Home/End  Enter open  space/b scroll  / filter  u unseen  t type  r refresh  q quit';
const KEYS_SHORT = '↑↓jk PgUp/Dn Home/End  Enter open  / filter  u unseen  t type  r reload  q quit';
const SCROLL_KEYS = 'space/b scroll the detail';
const TITLE_MIN = 20;

const one = (v: unknown) => visible(typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v), true);

/** Widths of the type and code columns: as wide as their longest, within reach, leaving the title its room. */
function columnWidths(b: Browse, width: number) {
  const onScreen = b.shown.slice(b.top, b.top + b.rows);
  const longest = (key: 'type' | 'code') => Math.max(4, ...onScreen.map((n) => displayWidth(one(n[key]))));
  // Pointer, unseen mark, space, time (16), then a space before each of type, code and title.
  const room = Math.max(0, width - 20 - 3 - TITLE_MIN);
  let type = Math.min(longest('type'), width >= 120 ? 16 : 12);
  let code = Math.min(longest('code'), width >= 120 ? 26 : 18);
  while (type + code > room && (type > 4 || code > 4)) {
    if (code >= type && code > 4) code--;
    else type--;
  }
  return { type, code };
}

function listRow(b: Browse, n: BrowseNote, selected: boolean, width: number, w: { type: number; code: number }) {
  const mark = b.account !== undefined && !b.seenByMe(n) ? '*' : ' ';
  const fresh = b.arrived.has(n.id) ? '+' : ' ';
  const cell = (v: unknown, columns: number) => pad(cut(one(v), columns), columns);
  const fixed = `${selected ? '>' : ' '}${mark}${fresh} ${pad(localTime(n.createdAt), 16)} `;
  return cut(`${fixed}${cell(n.type, w.type)} ${cell(n.code, w.code)} ${one(n.title)}`, width);
}

/** `type · code · id`: the type and code cut first; the id whole, else its unique prefix, else left out. */
function kindLine(b: Browse, n: BrowseNote, width: number): string {
  const head = `${one(n.type)} · ${one(n.code)}`;
  const id = one(n.id);
  const fits = (shown: string) =>
    displayWidth(head) + 3 + displayWidth(shown) <= width || width - displayWidth(shown) >= 9;
  const shown = fits(id) ? id : new ShortIds(b.ids()).of(id);
  if (!fits(shown)) return cut(head, width);
  return `${cut(head, width - 3 - displayWidth(shown))} · ${shown}`;
}

/** The detail of one notification: title, type and code, time and age, seen by, wrapped body, meta. */
function detail(b: Browse, n: BrowseNote | undefined, width: number, t: Theme, now: number): string[] {
  if (!n) return [t.dim('no notification selected')];
  const created = epochMs(n.createdAt);
  const seenBy = Array.isArray(n.seenBy) ? n.seenBy.map(one) : [];
  // Every line whole: wrapped at spaces, and a word longer than the pane (a URL) in pieces; the pane scrolls.
  const whole = (text: string) =>
    wrapText(text, width)
      .split('\n')
      .flatMap((l) => chunks(l, width));
  const lines = [
    ...whole(one(n.title) || '(no title)').map((l) => t.bold(l)),
    t.dim(kindLine(b, n, width)),
    t.dim(created === undefined ? '' : `${localTime(created)} (${age(created, now)})`),
    // Who has seen it comes before the body, so a terminal of 24 rows still shows it.
    ...whole(`seen by ${seenBy.length > 0 ? seenBy.join(', ') : 'nobody yet'}`).map((l, i) =>
      i === 0 ? `${t.bold('seen by')}${l.slice('seen by'.length)}` : l,
    ),
    '',
    ...whole(visible(typeof n.body === 'string' ? n.body : '')),
  ];
  if (n.meta !== undefined && n.meta !== null) {
    lines.push('', t.bold('meta'));
    const meta = typeof n.meta === 'object' ? Object.entries(n.meta as object) : [['', n.meta]];
    for (const [k, v] of meta)
      lines.push(...whole(`  ${k ? `${one(k)}: ` : ''}${one(v === null ? 'null' : valueText(v))}`));
  }
  return lines;
}

/**
 * The detail lines the pane of `rows` shows at the model's scroll: what is above and below the fold is
 * marked, with the key that shows it.
 */
function pane(b: Browse, lines: string[], rows: number, t: Theme): string[] {
  const marks = rows >= 3;
  b.fitDetail(lines.length <= rows ? 0 : lines.length - rows + (marks ? 1 : 0), rows, b.current?.id);
  const top = b.scroll;
  const out = top > 0 && marks ? [t.dim(`↑ ${top} line${top === 1 ? '' : 's'} above · b`)] : [];
  let room = rows - out.length;
  const below = () => lines.length - (top + room);
  if (marks && below() > 0) room--;
  out.push(...lines.slice(top, top + room));
  if (marks && below() > 0) out.push(t.dim(`↓ ${below()} more line${below() === 1 ? '' : 's'} · space`));
  return out;
}

/** The whole screen as `height` lines, none wider than `width` columns. */
export function browseFrame(b: Browse, width: number, height: number, t: Theme, now = Date.now()): string[] {
  const inner = Math.max(0, height - 4);
  // No more rows than there are to list: what is left goes to the detail.
  const listRows = Math.max(1, Math.min(Math.floor(inner * 0.45), b.shown.length));
  b.fit(listRows);
  const filters = [
    b.type !== undefined ? `type ${one(b.type)}` : 'all types',
    b.code !== undefined ? `code ${one(b.code)}` : '',
    b.unseen ? 'unseen only' : '',
    b.seenBy !== undefined ? `seen by ${one(b.seenBy)}` : '',
    b.unseenBy !== undefined ? `unseen by ${one(b.unseenBy)}` : '',
    b.since !== undefined ? `since ${localTime(b.since)}` : '',
    b.until !== undefined ? `until ${localTime(b.until)}` : '',
    b.text !== '' ? `filter "${one(b.text)}"` : '',
  ].filter(Boolean);
  const count = `${b.shown.length.toLocaleString('en')} of ${b.total.toLocaleString('en')}`;
  const head = `Notifications  ${count} · ${filters.join(' · ')}`;
  const lines = [t.bold(cut(head, width))];
  const w = columnWidths(b, width);
  for (let i = 0; i < listRows; i++) {
    const n = b.shown[b.top + i];
    if (!n) {
      lines.push(i === 0 && b.shown.length === 0 ? t.dim('no notifications match') : '');
      continue;
    }
    const selected = b.top + i === b.selected;
    const row = listRow(b, n, selected, width, w);
    lines.push(selected ? t.inverse(pad(row, width)) : row);
  }
  lines.push(t.dim('─'.repeat(width)));
  const detailRows = Math.max(0, height - lines.length - 2);
  const body = pane(b, detail(b, b.current, Math.max(10, width - 2), t, now), detailRows, t);
  for (let i = 0; i < detailRows; i++) lines.push(body[i] === undefined ? '' : ` ${body[i]}`);
  const status = b.typing ? `/${one(b.text)}▏` : b.status;
  if (!b.typing && status === '' && b.scrollMax > 0 && width < 100) lines.push(t.dim(cut(SCROLL_KEYS, width)));
  else lines.push(b.typing ? cut(status, width) : t.yellow(cut(status, width)));
  lines.push(t.dim(cut(width >= 100 ? KEYS : KEYS_SHORT, width)));
  return lines.slice(0, height);
}
