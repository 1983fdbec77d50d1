/**
 * A strict, small XML 1.0 reader for tests of what spotwatch writes (the Atom feed, badges): no
 * XML parser is among the dependencies, and one is not worth adding for tests alone. It
 * accepts the subset we write, and throws on anything not well-formed in it: one root element;
 * names as XML names; attributes quoted, each once; tags that nest and close in order; text and
 * attribute values without a raw `<` or a `&` that is not one of the five predefined entities or
 * a character reference; no characters XML forbids; nothing but a declaration, comments and
 * white space outside the root. No DTDs, no CDATA, no processing instructions but the declaration.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text, entities resolved (children's text left out). */
  text: string;
}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
// eslint-disable-next-line no-control-regex -- the characters XML forbids
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

function decode(raw: string, where: number): string {
  if (raw.includes('<')) throw new Error(`raw < at ${where}`);
  if (FORBIDDEN.test(raw)) throw new Error(`forbidden character at ${where}`);
  return raw.replace(/&([^;]*);?/g, (all, ref: string) => {
    if (!all.endsWith(';')) throw new Error(`unterminated reference at ${where}: ${all}`);
    const named = ENTITIES[ref];
    if (named !== undefined) return named;
    const m = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(ref);
    if (m === null) throw new Error(`unknown entity &${ref}; at ${where}`);
    return String.fromCodePoint(m[1] !== undefined ? parseInt(m[1], 16) : Number(m[2]));
  });
}

export function parseXml(text: string): XmlElement {
  let i = 0;
  const skipMisc = (): void => {
    for (;;) {
      const ws = /^\s*/.exec(text.slice(i))![0];
      i += ws.length;
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        if (end < 0) throw new Error('unterminated comment');
        i = end + 3;
      } else return;
    }
  };
  if (text.startsWith('<?xml')) {
    const end = text.indexOf('?>');
    if (end < 0 || !/^<\?xml version="1\.0"( encoding="utf-8")?\?>$/i.test(text.slice(0, end + 2))) throw new Error('bad XML declaration');
    i = end + 2;
  }
  skipMisc();
  const element = (): XmlElement => {
    if (text[i] !== '<') throw new Error(`expected < at ${i}`);
    i++;
    const name = NAME.exec(text.slice(i))?.[0];
    if (name === undefined) throw new Error(`bad element name at ${i}`);
    i += name.length;
    const el: XmlElement = { name, attrs: {}, children: [], text: '' };
    for (;;) {
      const ws = /^\s*/.exec(text.slice(i))![0];
      i += ws.length;
      if (text.startsWith('/>', i)) {
        i += 2;
        return el;
      }
      if (text[i] === '>') {
        i++;
        break;
      }
      if (ws === '') throw new Error(`expected white space before an attribute at ${i}`);
      const attr = NAME.exec(text.slice(i))?.[0];
      if (attr === undefined) throw new Error(`bad attribute name at ${i}`);
      i += attr.length;
      const m = /^\s*=\s*(["'])/.exec(text.slice(i));
      if (m === null) throw new Error(`attribute ${attr} without a quoted value at ${i}`);
      i += m[0].length;
      const end = text.indexOf(m[1]!, i);
      if (end < 0) throw new Error('unterminated attribute value');
      if (attr in el.attrs) throw new Error(`attribute ${attr} given twice`);
      el.attrs[attr] = decode(text.slice(i, end), i);
      i = end + 1;
    }
    for (;;) {
      const lt = text.indexOf('<', i);
      if (lt < 0) throw new Error(`element ${name} not closed`);
      el.text += decode(text.slice(i, lt), i);
      i = lt;
      if (text.startsWith('</', i)) {
        const close = `</${name}`;
        if (!text.startsWith(close, i)) throw new Error(`expected ${close}> at ${i}`);
        i += close.length;
        const m = /^\s*>/.exec(text.slice(i));
        if (m === null) throw new Error(`bad end tag of ${name} at ${i}`);
        i += m[0].length;
        return el;
      }
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        if (end < 0) throw new Error('unterminated comment');
        i = end + 3;
        continue;
      }
      if (text.startsWith('<!', i) || text.startsWith('<?', i)) throw new Error(`not accepted here: ${text.slice(i, i + 10)}`);
      el.children.push(element());
    }
  };
  const root = element();
  skipMisc();
  if (i !== text.length) throw new Error(`content after the root element at ${i}`);
  return root;
}

/** The children of `el` named `name`. */
export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

/** The one child of `el` named `name` (throws when there is not exactly one). */
export function child(el: XmlElement, name: string): XmlElement {
  const found = childrenNamed(el, name);
  if (found.length !== 1) throw new Error(`${el.name} has ${found.length} <${name}>`);
  return found[0]!;
}
