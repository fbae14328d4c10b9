import type { Ctx } from '../../context.js';
import { age } from '../../core/notifications.js';
import { valueText } from '../../core/number.js';
import { localTime } from '../../output/columns.js';
import { layoutWidth, visible } from '../../output/text.js';
import { colorEnabled, theme } from '../../output/theme.js';
import { wrapText } from '../../output/wrap.js';
import { epochMs } from '../../resources/time.js';

/** A notification as support staff read it: title, type and code, time and age, body, meta, who saw it. */
export async function readable(ctx: Ctx, n: Record<string, unknown>, color: boolean | undefined): Promise<string> {
  const t = await theme(colorEnabled(ctx, ctx.stdout, color));
  const width = Math.max(40, Math.min(layoutWidth(ctx.stdout, ctx.env), 200) - 2);
  const created = typeof n.createdAt === 'number' ? `${localTime(n.createdAt)} (${age(epochMs(n.createdAt)!)})` : '';
  const seenBy = (n.seenBy as string[] | undefined) ?? [];
  const lines = [
    t.bold(visible(String(n.title ?? '(no title)'), true)),
    t.dim(visible(`${n.type ?? ''} · ${n.code ?? ''} · ${n.id}`, true)),
    t.dim(created),
    '',
    wrapText(visible(String(n.body ?? '')), width),
    '',
  ];
  // `key: value` a line, as browse shows it; an empty meta says nothing, not a heading over nothing.
  const meta =
    n.meta === undefined || n.meta === null ? [] : typeof n.meta === 'object' ? Object.entries(n.meta) : [['', n.meta]];
  if (meta.length > 0)
    lines.push(
      t.bold('meta'),
      ...meta.map(([k, v]) => visible(`  ${k ? `${k}: ` : ''}${v === null ? 'null' : valueText(v)}`, true)),
      '',
    );
  lines.push(`${t.bold('seen by')} ${seenBy.length > 0 ? visible(seenBy.join(', '), true) : 'nobody yet'}`);
  return `${lines.join('\n')}\n`;
}
