/**
 * JSON.stringify of an object whose last key holds a long list, a part of the list per step:
 * a storm's notification (8,000 alerts, 4 MB of JSON) was one JSON.stringify of 20-30 ms on
 * the event loop. The text is exactly JSON.stringify(value)'s.
 */

/**
 * Steps of `per` items of `value[listKey]` each (run them with lib/timer's inTurns); returns
 * JSON.stringify(value). When the list is not the object's last own key (the text could not
 * be joined in its order), or is not an array, the whole value is stringified in one step.
 */
export function* stringifyInParts(value: object, listKey: string, per: number): Generator<void, string> {
  const list = (value as Record<string, unknown>)[listKey];
  const keys = Object.keys(value);
  if (!Array.isArray(list) || keys[keys.length - 1] !== listKey || list.length <= per || !(per >= 1) || 'toJSON' in value) return JSON.stringify(value);
  // The object with an empty list ends with `"<key>":[]}`: the items go between the brackets.
  const shell = JSON.stringify({ ...value, [listKey]: [] });
  const parts: string[] = [shell.slice(0, -2)];
  for (let i = 0; i < list.length; i += per) {
    yield;
    const text = JSON.stringify(list.slice(i, i + per));
    parts.push(i === 0 ? text.slice(1, -1) : `,${text.slice(1, -1)}`);
  }
  parts.push(']}');
  return parts.join('');
}
