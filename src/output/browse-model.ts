import { epochMs, newestFirst } from '../resources/time.js';

// The model of `notifications browse`: what is listed, what is selected, which filters hold. No terminal
// here: keys come in as names, and the view (output/browse-view.ts) draws what this holds.

export interface BrowseNote {
  id: string;
  createdAt?: unknown;
  type?: unknown;
  code?: unknown;
  title?: unknown;
  body?: unknown;
  seenBy?: unknown;
  [field: string]: unknown;
}

/** What a key asks of the command around the model: open (GET) the selected one, reload, or leave. */
export type BrowseAction = 'open' | 'refresh' | 'quit' | undefined;

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export class Browse {
  /** Every notification the server listed, newest first. */
  private all: BrowseNote[] = [];
  /** Those the filters let through, newest first: what the list shows. */
  shown: BrowseNote[] = [];
  selected = 0;
  /** The first row on screen. */
  top = 0;
  /** Rows the list has on screen; the view sets it as it lays out. */
  rows = 10;
  text = '';
  /** True while `/` takes the keys as the filter's text. */
  typing = false;
  unseen: boolean;
  type: string | undefined;
  /** Only those this account has seen (`--seen-by`), or has not (`--unseen-by`). */
  readonly seenBy: string | undefined;
  readonly unseenBy: string | undefined;
  /** The first line of the detail pane on screen: it scrolls when the selected one is longer than it. */
  scroll = 0;
  /** How far the detail pane can scroll; the view sets it as it lays out. */
  scrollMax = 0;
  /** The ids that came by polling since the start, marked in the list. */
  readonly arrived = new Set<string>();
  status = '';

  /** Only those made from `since` on and before `until` (`--since`, `--until`), in milliseconds. */
  readonly since: number | undefined;
  readonly until: number | undefined;

  constructor(
    readonly account: string | undefined,
    readonly code: string | undefined,
    options: {
      type?: string;
      unseen?: boolean;
      seenBy?: string;
      unseenBy?: string;
      since?: number;
      until?: number;
    } = {},
  ) {
    this.since = options.since;
    this.until = options.until;
    this.type = options.type;
    this.unseen = options.unseen ?? false;
    this.seenBy = options.seenBy;
    this.unseenBy = options.unseenBy;
  }

  get current(): BrowseNote | undefined {
    return this.shown[this.selected];
  }

  get total(): number {
    return this.all.length;
  }

  /** Every id listed: a long one's prefix is unique among them. */
  ids(): string[] {
    return this.all.map((n) => n.id);
  }

  seenByMe(n: BrowseNote): boolean {
    return this.account !== undefined && Array.isArray(n.seenBy) && n.seenBy.includes(this.account);
  }

  /** Replaces everything (the first load, `r`); the selection stays on the same notification when it can. */
  load(list: BrowseNote[]): void {
    this.all = [...list].sort(newestFirst);
    this.refilter();
  }

  /**
   * New ones from a poll go on top of the list, whatever their time says (they are the news), marked as
   * arrived; the selection stays on the notification it was on, and the window scrolls to the top when
   * both the newest and the selection fit on screen, else it keeps the selection where it was on screen.
   */
  add(fresh: BrowseNote[]): void {
    const known = new Set(this.all.map((n) => n.id));
    const incoming = fresh.filter((n) => !known.has(n.id)).sort(newestFirst);
    if (incoming.length === 0) return;
    for (const n of incoming) this.arrived.add(n.id);
    const before = this.current?.id;
    const row = this.selected - this.top;
    this.all = [...incoming, ...this.all];
    this.refilter(before);
    if (before !== undefined && this.current?.id === before) {
      this.top = this.selected < this.rows ? 0 : Math.max(0, this.selected - row);
    }
    this.clamp();
  }

  /** One notification as the server gave it on opening (seenBy now holds the reader). */
  replace(n: BrowseNote): void {
    const i = this.all.findIndex((m) => m.id === n.id);
    if (i >= 0) this.all[i] = n;
    const j = this.shown.findIndex((m) => m.id === n.id);
    if (j >= 0) this.shown[j] = n;
  }

  /** The types there are to cycle through with `t`, in order. */
  types(): string[] {
    return [...new Set(this.all.map((n) => str(n.type)).filter(Boolean))].sort();
  }

  private matches(n: BrowseNote): boolean {
    if (this.type !== undefined && n.type !== this.type) return false;
    if (this.code !== undefined && n.code !== this.code) return false;
    const at = epochMs(n.createdAt) ?? 0;
    if ((this.since !== undefined && at < this.since) || (this.until !== undefined && at >= this.until)) return false;
    if (this.unseen && this.seenByMe(n)) return false;
    const seen = (account: string) => Array.isArray(n.seenBy) && n.seenBy.includes(account);
    if (this.seenBy !== undefined && !seen(this.seenBy)) return false;
    if (this.unseenBy !== undefined && seen(this.unseenBy)) return false;
    if (this.text === '') return true;
    const needle = this.text.toLowerCase();
    return [n.title, n.body, n.type, n.code, n.id].some((v) => str(v).toLowerCase().includes(needle));
  }

  private refilter(keep = this.current?.id): void {
    this.shown = this.all.filter((n) => this.matches(n));
    const at = keep === undefined ? -1 : this.shown.findIndex((n) => n.id === keep);
    this.selected = at >= 0 ? at : Math.min(this.selected, Math.max(0, this.shown.length - 1));
    this.clamp();
  }

  /** Keeps the selection on the list and on screen. */
  private clamp(): void {
    this.selected = Math.max(0, Math.min(this.selected, this.shown.length - 1));
    if (this.selected < this.top) this.top = this.selected;
    if (this.selected >= this.top + this.rows) this.top = this.selected - this.rows + 1;
    this.top = Math.max(0, Math.min(this.top, Math.max(0, this.shown.length - this.rows)));
  }

  private move(to: number): void {
    this.selected = to;
    this.clamp();
  }

  /** Scrolls the detail pane by `lines`, within what it holds. */
  private scrollBy(lines: number): void {
    this.scroll = Math.max(0, Math.min(this.scroll + lines, this.scrollMax));
  }

  /**
   * The view tells, on each draw, how many lines the selected one's detail has past the pane and how many
   * the pane shows (a scroll moves by that, less one kept for context).
   */
  fitDetail(below: number, rows: number, id: string | undefined): void {
    // Another notification selected starts at its top.
    if (id !== this.detailOf) this.scroll = 0;
    this.detailOf = id;
    this.scrollMax = Math.max(0, below);
    this.scroll = Math.min(this.scroll, this.scrollMax);
    this.page = Math.max(1, rows - 1);
  }

  private detailOf: string | undefined;
  private page = 1;

  /**
   * A key, by the name node:readline gives it (`up`, `pagedown`, `return`, `escape`) or the character
   * typed; `ctrl` for Ctrl-C. Returns what the command must do, if anything.
   */
  key(name: string, ctrl = false): BrowseAction {
    if (ctrl && name === 'c') return 'quit';
    // The status line speaks of what is on screen: what it said of the last one opened or reloaded is gone.
    this.status = '';
    if (this.typing) {
      if (name === 'escape') {
        this.typing = false;
        this.text = '';
      } else if (name === 'return' || name === 'enter') this.typing = false;
      else if (name === 'backspace') this.text = this.text.slice(0, -1);
      else if ([...name].length === 1 && name >= ' ') this.text += name;
      else return undefined;
      this.refilter();
      return undefined;
    }
    switch (name) {
      case 'up':
      case 'k':
        this.move(this.selected - 1);
        return undefined;
      case 'down':
      case 'j':
        this.move(this.selected + 1);
        return undefined;
      case 'pageup':
        this.top = Math.max(0, this.top - this.rows);
        this.move(this.selected - this.rows);
        return undefined;
      case 'pagedown':
        this.top += this.rows;
        this.move(this.selected + this.rows);
        return undefined;
      case 'home':
      case 'g':
        this.move(0);
        return undefined;
      case 'end':
      case 'G':
        this.move(this.shown.length - 1);
        return undefined;
      case 'return':
      case 'enter':
        return this.current ? 'open' : undefined;
      case '/':
        this.typing = true;
        return undefined;
      case 'escape':
        if (this.text === '') return 'quit';
        this.text = '';
        this.refilter();
        return undefined;
      case 'u':
        if (this.account === undefined) {
          this.status = 'u needs your account: clinadmin config set account ID';
          return undefined;
        }
        this.unseen = !this.unseen;
        this.refilter();
        return undefined;
      case 't': {
        const types = this.types();
        const i = this.type === undefined ? -1 : types.indexOf(this.type);
        this.type = i + 1 < types.length ? types[i + 1] : undefined;
        this.refilter();
        return undefined;
      }
      case ' ':
        this.scrollBy(this.page);
        return undefined;
      case 'b':
        this.scrollBy(-this.page);
        return undefined;
      case 'r':
        return 'refresh';
      case 'q':
        return 'quit';
      default:
        return undefined;
    }
  }

  /** Lays the list out to `rows` rows (the view calls it on each draw, so a resize keeps the selection). */
  fit(rows: number): void {
    this.rows = Math.max(1, rows);
    this.clamp();
  }
}
