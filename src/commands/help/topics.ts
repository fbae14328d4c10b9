// Help topics: pages of `clinadmin help TOPIC` that are about a format, not a command (gh's `gh help
// formatting`). Plain text, loaded only by `help`.
import { MEASURE_COLUMNS, RANGE_COLUMNS } from '../../core/csv-columns.js';
import { EXIT_CODES_HELP } from '../../errors.js';

const wrap = (words: string[], width = 100) => {
  const lines: string[] = [];
  let line = ' ';
  for (const w of words) {
    if (line.length + w.length + 1 > width) {
      lines.push(line);
      line = ' ';
    }
    line += ` ${w}`;
  }
  return [...lines, line].join('\n');
};

const csv = () => `CSV catalogs: measures from a spreadsheet, one range a row

  clinadmin measures import catalog.csv --dry-run       .csv or .tsv, by the file's name
  clinadmin measures import - --format csv < sheet.csv  stdin
  clinadmin measures lint catalog.csv
  clinadmin measures export --format csv > catalog.csv  comma-separated (Excel in English locales)
  clinadmin measures export --format csv --delimiter ';' > catalog.csv   for Excel where ; separates

A sheet holds a measure's fields and one of its ranges per row:

  test,name,type,unit,range,sex,ageMin,ageMax,min,max
  tst_bmp,Potassium,numeric,mmol/L,reference,all,18,120,3.5,5.1
  tst_bmp,Potassium,,,panic,all,,,2.5,6.5
  tst_bmp,Sodium,numeric,mmol/L,reference,all,0,28d,133,146
  tst_bmp,Sodium,,,reference,all,29d,120,135,145
  tst_bmp,Sodium,,,panic,all,,,120,160

Columns, named as the fields, in any order and any case, any of them left out:
  the measure's own:
${wrap([...MEASURE_COLUMNS])}
  one range:
${wrap([...RANGE_COLUMNS])}
A column not listed here is an error naming it, with a guess.

Rows:
  - Rows are grouped into measures by (test, name); a measure's rows need not be next to each other.
  - A measure's own fields may be repeated on each of its rows or left empty after its first; two rows
    that disagree on one are an error naming both lines.
  - range is reference or panic (a panic range holds critical limits: "<2.5", ">6.5", or both); it is
    empty on the one row of a measure without ranges.
  - ageMin and ageMax are years, or an age with its unit: 72h, 28d, 6wk, 12mo (as age= of evaluate).
  - sets and choices are lists joined with | (\\| inside an item); section is JSON text.
  - An empty cell is an absent field, and an empty list is written as an empty cell. Spaces around a
    cell are not data.

As Excel writes it:
  - A UTF-8 byte-order mark, CRLF line ends, quoted cells holding the delimiter, quotes or line breaks.
  - ; as the delimiter (Excel in most European locales) is found from the header line; in such a file
    a decimal comma (3,5) is read as 3.5. --delimiter ';' writes semicolons and decimal commas.
  - Save as "CSV UTF-8": Excel's plain "CSV" uses the Windows code page, which is refused with the line
    and column of the first byte that is not UTF-8.
  - No cell is written that a spreadsheet would run as a formula (one starting with = + - @, a tab or
    a CR gets a leading '), and import reads such a cell back as its text: export, then import, gives
    the same bytes again.

Errors name file, line and column (the column counted in fields from 1), and nothing is sent while any
row is invalid:
  catalog.csv:14:9 (Potassium): max: must be a number (got "lots")

--dry-run, --report, --prune and the summary behave as for JSON (clinadmin measures import --help).
`;

const environment = () => `Environment variables clinadmin reads

Connecting (each overrides the stored profile; a flag overrides each):
  CLINADMIN_BASE_URL      the API's base URL (as --base-url)
  CLINADMIN_TOKEN         the token, sent to whatever base URL is in use (a stored token goes only to
                          the origin it was stored with)
  CLINADMIN_ACCOUNT       your account, for --unseen and the unseen marks of notifications
  CLINADMIN_PROFILE       the profile to use (as --profile); it must exist
  CLINADMIN_CONFIG_DIR    where the config store lives (else $XDG_CONFIG_HOME/clinadmin, or
                          ~/.config/clinadmin; %APPDATA% on Windows)

serve:
  CLINADMIN_SERVE_TOKENS  tokens serve accepts, token:account pairs separated by commas

Terminal and output:
  NO_COLOR                no colors (as --no-color); FORCE_COLOR turns them on, also in a pipe
  COLUMNS                 the width to lay out to when the terminal reports none, or in a pipe
  CI                      set: never prompt, as in a CI job (a missing value is an error instead)
  VISUAL, EDITOR          the editor of \`edit\` (VISUAL first)

Files:
  XDG_CACHE_HOME          the cache folder of Node's compile cache (else ~/.cache); owner-only
  NODE_DISABLE_COMPILE_CACHE
                          set: no compile cache
  TMPDIR                  where an import's spool files go (a private folder, removed as opened)
  HOME                    the home folder, for the defaults above
`;

export const TOPICS: Record<string, { summary: string; text: () => string }> = {
  csv: { summary: 'CSV catalogs: the columns, the rows, and what Excel writes', text: csv },
  environment: { summary: 'the environment variables clinadmin reads', text: environment },
  'exit-codes': {
    summary: 'what each exit code means',
    text: () => `${EXIT_CODES_HELP.trim()}\n`,
  },
};
