// The one rule against CSV formula injection, for every CSV clinadmin writes (-o csv and the catalog):
// a text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first: OWASP's CSV injection
// advice) gets a leading '. Text that already starts so after quotes ('=x) gets one more, so reading
// back (one ' taken off) gives the original exactly. A number such as -5 is a number, never touched.

const FORMULA = /^'*[=+\-@\t\r]/;

/** The cell's text as written: guarded with a ' when a spreadsheet would run it. */
export const guardFormula = (text: string): string => (FORMULA.test(text) ? `'${text}` : text);

/** A cell as read back: the one ' the writer added taken off. */
export const unguardFormula = (cell: string): string =>
  cell.charCodeAt(0) === 39 && FORMULA.test(cell) ? cell.slice(1) : cell;

// The quote, and every line break some reader splits records at: RFC 4180 quotes CR and LF; Python's
// splitlines and Unicode also break at VT, FF, FS to RS, NEL, U+2028 and U+2029.
const QUOTED = /["\r\n\v\f\x1c-\x1e\x85\u2028\u2029]/;

/** A cell's text as written: quoted (RFC 4180) when it holds the delimiter, a quote or a line break. */
export const csvQuoted = (s: string, delimiter: string): string =>
  s.includes(delimiter) || QUOTED.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
