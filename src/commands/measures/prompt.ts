import type { Ctx } from '../../context.js';
import { prompter } from '../../core/prompts.js';
import { formatRange, parseRangeSpec } from '../../core/ranges.js';
import { MEASURE_TYPE_VALUES } from '../../schemas/values.js';

/**
 * A range typed at the prompt, checked at once with the same rules the server applies (bounds in order,
 * a known sex), so a mistake is asked again with its reason, not found after the last question.
 */
async function rangeCheck(): Promise<(v: string) => true | string> {
  const [{ referenceRangeSchema, toFieldErrors }] = await Promise.all([import('../../schemas/common.js')]);
  return (v: string) => {
    try {
      const range = parseRangeSpec(v);
      const r = referenceRangeSchema.safeParse(range);
      if (r.success) return true;
      return toFieldErrors(r.error, range)
        .map((e) => (e.path === '(body)' ? e.message : `${e.path}: ${e.message}`))
        .join('; ');
    } catch (err) {
      return (err as Error).message;
    }
  };
}

/** Asks for what a measure still needs, then offers a loop to add reference ranges. */
export async function promptMeasure(ctx: Ctx, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const ask = await prompter(ctx);
  const out = { ...body };
  if (!out.test) out.test = await ask.text('Medical test id (--test):', { required: true });
  if (!out.name) out.name = await ask.text('Measure name (--name):', { required: true });
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
    const ranges: Record<string, unknown>[] = [];
    const trySpec = await rangeCheck();
    while (
      await ask.confirm(
        ranges.length === 0 ? 'Add a reference range?' : 'Add another reference range?',
        ranges.length === 0,
      )
    ) {
      const spec = await ask.text('Range, e.g. 3.5-5.1 sex=male age=18-65:', { validate: trySpec });
      const range = parseRangeSpec(spec);
      ranges.push(range as Record<string, unknown>);
      ctx.stderr.write(`  added ${formatRange(range, out.unit as string | undefined)}\n`);
    }
    if (ranges.length > 0) out.referenceRanges = ranges;
  }
  return out;
}
