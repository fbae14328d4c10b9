// Help topics: pages of `clinadmin help TOPIC` that are about a format, not a command (gh's `gh help
// formatting`). Plain text, loaded only by `help`.

import { EXIT_CODES_HELP } from '../../errors.js';
import { COLUMN_WORDS, MEASURE_COLUMNS, RANGE_COLUMNS } from '../../formats/csv/columns.js';
import { hl7 } from './hl7.js';

// A list of names as one line, indented: help's one wrapper (output/wrap.ts) fits it to the reader's width.
const wrap = (words: string[]) => `  ${words.join(' ')}`;

/** The critical-limit columns are no field: each fills one end of a panic range. */
const LIMIT_SHOWN: Record<string, string> = { criticalLow: 'panic min', criticalHigh: 'panic max' };

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
or by the word a lab heads it with, in any case, spaces, _, - and . aside:
${wrap(Object.entries(COLUMN_WORDS).map(([word, c]) => `${word} (${LIMIT_SHOWN[c] ?? c})`))}
  A code under LOINC or LOINC code is LOINC's (hl7IdentifierSys LN) unless a Code system column says.
  Critical low and Critical high put critical limits on a reference range's own row: a panic range
  for the same sex and ages. A sheet without a range column holds reference ranges; one without a test
  column takes its test from --test.
A column not listed here is an error naming it, with the nearest guess (did you mean "LOINC"?);
--column "Parameter=name" reads it as a field, --column "Comments=" leaves it out, and --column "="
leaves out the columns with no header (a header may hold =: the last = ends it); a header given two
ways, or one the sheet does not have, is refused.

Rows:
  - Rows are grouped into measures by (test, name); a measure's rows need not be next to each other.
  - A measure's own fields may be repeated on each of its rows or left empty after its first; two rows
    that disagree on one are an error naming both lines.
  - range is reference (or normal) or panic (or critical, FHIR's name: a panic range holds critical
    limits); it is empty on the one row of a measure without ranges. A critical limit may be written
    "<2.5" in a low limit's cell (min, Critical low) and ">6.5" in a high one's.
  - sex is all, male or female, or M and F, in any case.
  - ageMin and ageMax are the lab's notation: whole years or a count with its unit, 36h, 28d, 2wk, 11mo,
    17y, or in words (28 days, 11 months, 36 hrs); ageMax is the last completed unit (0 and 28d hold
    ages before day 29; clinadmin help ranges).
    Export writes each in the largest unit it is whole in. A ;-separated sheet may use decimal commas.
  - Numbers are digits with an optional minus sign and one decimal point (a decimal comma in a
    ;-separated sheet); 0x10, 1e3, 1_000 and Infinity are refused. A bound keeps the decimals written:
    8.0 is 8 at precision 1 (minPrecision 1), unless its precision cell says otherwise. Export writes
    plain digits (0.0000001, never 1e-7) at each bound's precision.
  - sets and choices are lists joined with | (\\| inside an item); section is JSON text.
  - An empty cell is an absent field, and an empty list is written as an empty cell. Spaces around a
    cell are not data.
  - A line starting with # is a comment, before the header and between rows.
  - A Reference range cell holds a reference range whole: 3.5-5.1, "3.5 – 5.1 mmol/L" (its unit the
    measure's; "3.4-9.6 x 10^9/L" and ×10⁹/L are in 10^9/L), ≤ 5.0 or ≥ 60; <5 and >60 leave their end
    out, which a bound cannot, and are refused. A cell giving each sex a line, "Male = 135-175 g/L" and
    "Female = 120-160 g/L", holds a range for each (the row's sex left empty); a sex given two lines,
    or a line naming neither sex (All = …), is refused.

As Excel writes it:
  - A UTF-8 byte-order mark, CRLF line ends, quoted cells holding the delimiter, quotes or line breaks.
  - ; as the delimiter (Excel in most European locales) is found from the header line; in such a file
    a decimal comma (3,5) is read as 3.5, and 150.000 (150000 in those locales, 150 elsewhere) is
    refused. --delimiter ';' writes semicolons and decimal commas.
  - Save as "CSV UTF-8": Excel's plain "CSV" uses the Windows code page, which is refused with the line
    and column of the first byte that is not UTF-8.
  - No cell is written that a spreadsheet would run as a formula (one starting with = + - @, a tab or
    a CR gets a leading '), and import reads such a cell back as its text: export, then import, gives
    the same bytes again.

Errors name file, line and column (the column counted in fields from 1), and nothing is sent while any
row is invalid:
  catalog.csv:14:9 (Potassium): max: must be a number: an optional minus sign, digits and at most one
    decimal point, as in -3.5 (got "lots")
One run lists every problem of the sheet in its order, as eslint does: bad cells, an unknown column
(the rest is still read without it), the rules a measure breaks and lint's warnings (marked warning:),
the first 50 and then how many more.

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
  CLINADMIN_SERVE_TOKENS  tokens serve accepts, TOKEN:ACCOUNT pairs separated by commas; TOKEN:ACCOUNT:admin
                          may also use /_admin/ (clinadmin sandbox)
  XDG_RUNTIME_DIR         where serve locks its data file by device and inode, so a hard link in any
                          folder is refused (else a 0700 folder in TMPDIR)

Terminal and output:
  NO_COLOR                no colors (as --no-color); FORCE_COLOR turns them on, also in a pipe
  COLUMNS                 the width to lay out to when the terminal reports none, or in a pipe
  CLINADMIN_PAGER, PAGER  the pager of list and show at a terminal (CLINADMIN_PAGER first; else less
                          -FRX); empty or cat: none (as --no-pager)
  CI                      set: never prompt, as in a CI job (a missing value is an error instead)
  VISUAL, EDITOR          the editor of \`edit\` (VISUAL first)

Files:
  XDG_CACHE_HOME          the cache folder of Node's compile cache (else ~/.cache); owner-only
  NODE_DISABLE_COMPILE_CACHE
                          set: no compile cache
  TMPDIR                  where an import's spool files go (a private folder, removed as opened)
  HOME                    the home folder, for the defaults above
`;

const ranges = () => `Ranges: the short form of --reference-range and --panic-range

  3.5-5.1                       from 3.5 to 5.1 (also 3.5..5.1); 3.5.. or ..5.1 for one bound
  "3.5-5.1 sex=male age=18-65"  then any of: sex=all|male|female  age=MIN-MAX|any  si=MIN-MAX
                                precision=N  id=ID
  age=0-24h  age=0-28d  age=29d-11mo  age=1-17y  age=12mo-1y
                                ages are years unless a unit says otherwise (below)

Numbers are digits, a minus sign where a negative makes sense and one decimal point; 0x10, 1e3, 1_000
and Infinity are refused, in the short form, a flag or a sheet's cell alike. A bound keeps the decimals
it is written with: 11.0-14.0 is 11 to 14 at precision 1 (minPrecision and maxPrecision, "significant
places after the decimal point"), and every view, CSV and FHIR export shows it as 11.0-14.0; 13.5 needs
no precision to say its own. precision=N, or a precision column, says it instead. A JSON catalog says
it in those fields: a JSON number 8.0 is 8 to every JSON parser. Views and exports write plain digits
(0.0000001, never 1e-7), and never round a digit away.

Panic ranges hold critical limits, as FHIR R4 defines its critical range ("results outside this range
are critical"): a result below min, or above max, is critical.
  "<2.5"        critical below 2.5            ">6.5"    critical above 6.5
  "2.5-6.5"     critical below 2.5 or above 6.5
Quote them: < and > mean something to the shell. The open forms ..2.5 and 6.5.. are refused for panic
ranges: earlier development builds read them as the zone of critical values, the other way round.

Ages, as labs write them:
  An age is a count with a unit, h, d, wk, mo or y (UCUM's a too, and the words hours, days, weeks,
  months, years in any case), or whole years: 36h, 28d, 28 days, 2wk, 11mo, 17y, 17; the same forms
  in age=, --age, JSON and NDJSON ("ageMax": "28d"), CSV cells and prompts. A band MIN-MAX is the
  lab's completed-unit notation: from age MIN through the last completed unit MAX, so 0-28d holds
  every age before day 29, 18-120 every age before 121 y, 29d-11mo everyone until their first
  birthday (11.9 mo too), and 0-24h/25-48h, 0-28d/29d-1y, 29d-11mo/1-17y meet with no gap and no
  overlap. 12mo-1y and 24h-1d are bands too (the second year, the second day).
  MAX is a whole count; <MAX (0-<0.5y) is an end given as the first age past the band.
  A gap is named in one unit: 0-7d then 1-12mo leave "ages 8-30 d" uncovered.

What is stored, in evaluate, lint, the views, import and FHIR alike:
  - The service holds exact ages in years: ageMin the first age in the band, ageMax the first age past
    it (a band is [ageMin, ageMax)); 0-28d is sent as 0 and 29/365.25, 18-120 as 18 and 121.
  - A year is 365.25 days, a month a twelfth of a year (30.4375 d), a week 7 days, as UCUM defines a, mo
    and wk: so every whole count of h, d, mo, y is an exact decimal in hours (1 mo = 730.5 h), 12 mo is
    1 y and 24 h is 1 d, and the same age has one number whatever unit it was typed in.
  - A number within 15 significant digits of a whole count of y, mo, d or h is that age; another is kept
    as it is, to its last digit. A spreadsheet or database that keeps 15 digits keeps the band.
  - An age is evaluated as in its band when ageMin <= age < ageMax.
Display, one rule: each end in the largest of h, d, mo, y in which it is whole (never weeks), the upper
  end as the last completed unit: [0, 29 d) is 0-28 d, [29 d, 12 mo) is 29 d-11 mo, [25 h, 8 d) is
  25 h-7 d, [18 y, 121 y) is 18-120 y, [1 y, 2 y) is 1 y. JSON and CSV exports write the same notation
  ("ageMin": "29d", "ageMax": "11mo"); an end whole in no unit is written as years (0.0767y, <0.0767y).
FHIR writes an age Range as R4 reads it, low the first age and high the first age past (29-365.25 d
  for 29 d-11 mo, both ends in one unit), so it means the same with every extension removed.

On update, one range at a time, the others kept whole (ids, SI bounds, precisions):
  --add-reference-range "RANGE"       --set-reference-range "N|ID RANGE"
  --remove-reference-range N|ID       --replace-reference-ranges "RANGE" (all of them; asks first)
and the same for panic ranges. N is the range's place as \`show\` lists it, from 1. A set replaces what
its RANGE gives and keeps the rest: "2 12.1-15.6" sets the limits and keeps the band's sex and ages;
"2 sex=all age=any" widens it. The limits are one part: "1 <6.5" leaves no critical high limit (a warning
says so). An SI bound goes with a limit changed without si= (it restated the old one); a limit given again
unchanged keeps it. A range is named once a command; a set keeps its id; an added id is new.
update lints as import does, a dry run too: --strict refuses a change lint warns of.
A dry run (import, apply, update) pairs the ranges it compares by id, then, for a range without one, by
sex and age band: a band inserted before the others is one addition. A change of precision alone shows
(0.1-1.2 → 0.10-1.20).
A reference range given without an id (on import, apply or --replace-reference-ranges) keeps the id of
the stored range for the same sex and age band (the one with the same limits first), else of the one
with the same sex and limits; never the id of the range at its place, so an id stays with its band.

  clinadmin measures create --test tst_bmp --name Sodium --type numeric --unit mmol/L \\
    --reference-range "135-145 age=18-120" --panic-range "120-160"
  clinadmin measures update msr_na --set-reference-range "1 136-145 age=18-120"
  clinadmin measures evaluate msr_na --value 119 --age 40       critical-low
`;

const input = () => `Input: how records reach create, update, import and apply

create and update:
  a flag per field (clinadmin measures create --help lists them), or the whole body from
  --file PATH (- for stdin) or --data JSON (@FILE reads a file); flags override the body.
  At a terminal, create asks for the required fields not given; without one, their flags are needed.

import, apply and lint read, from files or stdin (-):
  a JSON array (what list -o json writes), one object, an object holding an array
  ({"diagnosticAnalyzers": [...]}), NDJSON, FHIR R4 (a Bundle, one ObservationDefinition, FHIR NDJSON),
  or for measures a spreadsheet: .csv or .tsv, or --format csv for stdin (clinadmin help csv).
  Fields the service sets (id, createdBy, createdAt) are set aside with a notice; an id the server
  knows still finds its record.

Every record is checked with the server's own rules before the first request. A syntax error names
file, line and column; an invalid record names file, record (or line), name and field. With any invalid
record nothing is sent (exit 2), and every error and warning of the input is listed in its order, the
first 50 and then how many more.

Text must be UTF-8 (a byte-order mark is fine); UTF-16, Latin-1 or a NUL byte is refused, naming the
place. A file is read in 64 KB pieces, so its size does not set the memory used.
`;

const output = () => `Output: formats, fields, queries

  -o table     one line a record, laid out to the terminal's width (the default at a terminal)
  -o wide      the table with more columns
  -o json      the records as the server sent them (the default in a pipe)
  -o ndjson    one record a line
  -o csv       RFC 4180, a header row; a cell a spreadsheet would run as a formula gets a leading '
  -o yaml      YAML 1.2; text a YAML reader could take for something else (yes, 0o7, a date) is quoted
  --fields a,b       only these columns and keys (a name the resource lacks is refused, with a guess)
  --query EXPR       a JMESPath expression over the JSON (holds the whole list in memory)
  --no-headers       tables without the header row, for scripts
  --no-color         no colors (also NO_COLOR); FORCE_COLOR turns them on

Data goes to stdout, and only data; messages, prompts, progress and traces go to stderr. Lists stream:
table, json, ndjson and csv write each record as it arrives, so a list of 100,000 costs the memory of
one record. Text from a server reaches a terminal with its control and format characters (zero-width,
bidi) shown as escapes such as \\u200b, in every view, error and trace; json and ndjson escape them the
same way, which reads back as the same text; csv and yaml keep them exactly into a file or a pipe.

  clinadmin measures list -o json --fields id,name | jq .
  clinadmin coverages list --query "[?type=='deduction'].name"
  clinadmin notifications list -o ndjson --limit 0 > all.ndjson
`;

export const TOPICS: Record<string, { text: () => string }> = {
  ranges: { text: ranges },
  input: { text: input },
  output: { text: output },
  csv: { text: csv },
  hl7: { text: hl7 },
  'exit-codes': { text: () => `${EXIT_CODES_HELP.trim()}\n` },
  environment: { text: environment },
};
