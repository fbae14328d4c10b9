// `clinadmin help hl7`: the mapping of src/formats/hl7/table.ts in words; docs/catalogs.md has the same table.
export const hl7 = () => `HL7 v2: test compendiums as master files (MFN^M08, M09, M10)

measures import, lint and apply read HL7 v2.5.1 master file messages (chapter 8), alone or in a batch
(FHS/BHS … BTS/FTS), chosen by the file's first segment or by --format hl7. Segments may end in \\r, \\n or
\\r\\n; the separators are the ones MSH declares; escapes \\F\\ \\S\\ \\T\\ \\R\\ \\E\\ and \\Xhh\\ are read.
Each MFE with its OM1 is a measure; an M10 battery (OM1 + OM5) is the test of the members it lists.

  HL7 field                      measure field
  OM1-2 code ^ text ^ system     hl7IdentifierCod, name, hl7IdentifierSys (LOINC is LN)
  OM1-3 data type                type: NM, SN numeric; CWE, CE, CNE multiplechoice; ST, TX text; FT html
  OM1-6 description              description
  OM1-7 id ^^ 99CLINADMIN        id (what export writes, so a re-import finds the same record)
  OM2-2, OM2-4 units (UCUM)      unit, siunit
  OM2-3 length.decimals          the precision of a bound written with no decimals, when none has any
  OM2-6 reference ranges (RFR)   referenceRanges: low&high ^ sex ^ age low&age high
  OM2-7 critical ranges (RFR)    panicRanges: below low or above high is critical (as FHIR's critical)
  OM3-3 answers                  choices (their text, else their code)
  OM3 answers POS, NEG (0078)    type posneg
  OM5-2 members (M10)            test: the battery's OM1-2 code, else --test

Sex: empty is all, M male, F female; U (unknown), A (ambiguous) and the rest are refused. Ages are in
years, or fractions of a year (0.0833 is 1 mo, 0.00274 is 1 d: the whole hours, days, months or years the
digits round from; below a year, the spec's 0.0027300 is 1 d, 0.01920 1 wk and 0.0830 1 mo); HL7 counts
the low end out and the high end in, clinadmin the low end in and the high end out, so the two differ only
at the instant on a boundary. A bound's precision is the decimals written.

Events (MFE-1): MAD and MUP create or update; MDL deletes under --prune --yes and is reported otherwise;
MDC and MAC are refused (no field holds "inactive"). In a message of changes (MFI-3 UPD) --prune deletes
only what its MDLs name; REP, or none, makes each test it names hold the file's records alone. What a
measure cannot hold (OM2-5's conversion factor, OM2-8 to OM2-10, OM3-4 to OM3-6) is named as a warning,
never dropped in silence. An RFR for a
gestational age, species, race or condition (RFR-4 to RFR-7) would hold for everyone without it: an error
naming the range, or with --leave-out-ranges the measure without that range, each listed as left out.

measures export --format hl7 writes one MFN^M08 message with every measure (OM3 for a coded one), and an
MFN^M10 whose batteries are the tests, in one batch; segments end in \\r and every value is escaped.

  clinadmin measures lint compendium.hl7 --test tst_chem
  clinadmin measures import compendium.hl7 --dry-run
  clinadmin measures export --format hl7 --test tst_cbc --out cbc.hl7
`;
