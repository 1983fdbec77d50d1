/**
 * Annotation templates: `{{field}}` replaced by the alert's field (coin, network, symbol,
 * exchange, kind, before, after, value, threshold, deposit_desc, withdraw_desc, ...).
 * A field with no value renders as empty text. No code runs in a template.
 */

/** The values a template may name, by field. */
export type TemplateFields = Readonly<Record<string, string | number | boolean | null | undefined>>;

const FIELD = /\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}/g;

export function render(template: string, fields: TemplateFields): string {
  return template.replace(FIELD, (_m, name: string) => {
    const v = fields[name];
    return v === null || v === undefined ? '' : String(v);
  });
}
