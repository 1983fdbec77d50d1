/**
 * From a scenario's YAML document to plain values (positions are lib/yaml-source's). Decimal
 * fields keep the text as written: `withdrawIntegerMultiple: 1E-8` must stay `1E-8`,
 * `withdrawFee: 0.50` stay `0.50`, which a YAML number would lose.
 */
import { isAlias, isMap, isScalar, isSeq, type Document } from 'yaml';

const DECIMAL_KEYS = new Set([
  'withdrawFee', 'withdrawMin', 'withdrawInternalMin', 'depositDust', 'withdrawIntegerMultiple', 'price', 'string',
]);

export function toPlain(doc: Document, node: unknown, key?: string): unknown {
  if (isAlias(node)) return toPlain(doc, node.resolve(doc), key);
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      out[k] = toPlain(doc, pair.value, k);
    }
    return out;
  }
  if (isSeq(node)) return node.items.map((item) => toPlain(doc, item));
  if (isScalar(node)) {
    if (key !== undefined && DECIMAL_KEYS.has(key) && typeof node.value === 'number' && typeof node.source === 'string') return node.source;
    return node.value;
  }
  return null;
}
