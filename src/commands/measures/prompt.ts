import type { Ctx } from '../../context.js';
import { formatCritical, formatRange, parseRangeSpec } from '../../core/ranges.js';
import { prompter } from '../../output/prompts.js';
import { nameAnswer } from '../../schemas/names.js';
import { MEASURE_TYPE_VALUES } from '../../schemas/values.js';

/**
 * A range typed at the prompt, checked at once with the same rules the server applies (bounds in order,
 * a known sex), so a mistake is asked again with its reason, not found after the last question. A panic
 * range is read in the flag's forms for critical limits (`<2.5`, `>6.5`, `2.5-6.5`).
 */
async function rangeCheck(panic: boolean): Promise<(v: string) => true | string> {
  const { panicRangeSchema, referenceRangeSchema, toFieldErrors } = await import('../../schemas/common.js');
  const schema = panic ? panicRangeSchema : referenceRangeSchema;
  return (v: string) => {
    try {
      const range = parseRangeSpec(v, panic ? '--panic-range' : '--reference-range', panic);
      const r = schema.safeParse(range);
      if (r.success) return true;
      return toFieldErrors(r.error, range)
        .map((e) => (e.path === '(body)' ? e.message : `${e.path}: ${e.message}`))
        .join('; ');
    } catch (err) {
      return (err as Error).message;
    }
  };
}

/** Offers a loop to add ranges of one kind; the ranges added, each said back as it will be read. */
async function askRanges(ctx: Ctx, ask: Awaited<ReturnType<typeof prompter>>, unit: unknown, panic: boolean) {
  const ranges: Record<string, unknown>[] = [];
  const trySpec = await rangeCheck(panic);
  const kind = panic ? 'panic range (critical limits)' : 'reference range';
  while (
    await ask.confirm(ranges.length === 0 ? `Add a ${kind}?` : `Add another ${kind}?`, ranges.length === 0 && !panic)
  ) {
    const example = panic
      ? '"2.5-6.5" (critical below 2.5 or above 6.5), "<2.5" or ">6.5"'
      : '3.5-5.1 sex=male age=18-65';
    const spec = await ask.text(`Range, e.g. ${example}:`, { validate: trySpec });
    const range = parseRangeSpec(spec, panic ? '--panic-range' : '--reference-range', panic);
    ranges.push(range as Record<string, unknown>);
    const said = (panic ? formatCritical : formatRange)(range, unit as string | undefined);
    ctx.stderr.write(`  added ${said}\n`);
  }
  return ranges;
}

/** Asks for what a measure still needs, then offers loops to add reference ranges and panic ranges. */
export async function promptMeasure(ctx: Ctx, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const ask = await prompter(ctx);
  const out = { ...body };
  if (!out.test) out.test = await ask.text('Medical test id (--test):', { required: true });
  if (!out.name) out.name = await ask.text('Measure name (--name):', { required: true, validate: nameAnswer });
  if (!out.type) out.type = await ask.choose('Result type (--type):', MEASURE_TYPE_VALUES, 'numeric');
  if (out.type === 'numeric' && out.unit === undefined) {
    const unit = await ask.text('Unit, e.g. mmol/L (--unit, empty to skip):');
    if (unit.trim()) out.unit = unit.trim();
  }
  if ((out.type === 'multiplechoice' || out.type === 'checklist') && !out.choices) {
    const choices = await ask.text('Choices, comma-separated (--choices):', { required: true });
    out.choices = choices
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
  }
  if (out.type === 'numeric' && out.referenceRanges === undefined) {
    const ranges = await askRanges(ctx, ask, out.unit, false);
    if (ranges.length > 0) out.referenceRanges = ranges;
  }
  if (out.type === 'numeric' && out.panicRanges === undefined) {
    const ranges = await askRanges(ctx, ask, out.unit, true);
    if (ranges.length > 0) out.panicRanges = ranges;
  }
  return out;
}
