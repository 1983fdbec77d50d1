import { createLogger } from '../../src/lib/logger';
import { prettyLine } from '../../src/lib/pretty-log';

function capture(): { lines: string[]; write(s: string): void } {
  const lines: string[] = [];
  return { lines, write: (s: string) => void lines.push(s) };
}

// eslint-disable-next-line no-control-regex -- ANSI color sequences
const ANSI = /\u001b\[\d+m/g;

describe('log.format', () => {
  it('auto: JSON lines when they do not go to a terminal', () => {
    const out = capture();
    createLogger({ format: 'auto', tty: false, destination: out }).info({ coin: 'USDT' }, 'hello');
    expect(JSON.parse(out.lines[0]!)).toMatchObject({ level: 30, msg: 'hello', coin: 'USDT' });
  });

  it('auto: readable lines (time, level, message, fields) in color on a terminal, secrets still redacted', () => {
    const out = capture();
    createLogger({ format: 'auto', tty: true, destination: out }).warn({ coin: 'USDT', token: 's3cr3t', receiver: { headers: { authorization: 'Bearer x' } } }, 'hello there');
    const line = out.lines[0]!;
    expect(line).toMatch(ANSI);
    expect(line.replace(ANSI, '')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} WARN {2}hello there coin=USDT token=\[redacted\] receiver=\{"headers":\{"authorization":"\[redacted\]"\}\}\n$/);
    expect(line).not.toContain('s3cr3t');
  });

  it('pretty: readable without color where there is no terminal; json: JSON even on one', () => {
    const pretty = capture();
    createLogger({ format: 'pretty', tty: false, destination: pretty }).error({ err: new Error('boom'), exchange: 'main' }, 'poll failed');
    expect(pretty.lines[0]).not.toMatch(ANSI);
    expect(pretty.lines[0]).toMatch(/ ERROR poll failed exchange=main err="Error: boom"\n {4}at /);
    const json = capture();
    createLogger({ format: 'json', tty: true, destination: json }).info('x');
    expect(JSON.parse(json.lines[0]!)).toMatchObject({ msg: 'x' });
  });

  it('writes a line that is not JSON as it came, and quotes values with spaces', () => {
    expect(prettyLine('not json', false)).toBe('not json\n');
    expect(prettyLine(JSON.stringify({ level: 30, time: 0, msg: 'm', text: 'a b', n: 1 }), false)).toBe('1970-01-01 00:00:00.000 INFO  m text="a b" n=1\n');
  });
});

describe('log.format: pretty with an exchange\'s hostile text', () => {
  /** ESC[31m (red), BEL, NUL and a right-to-left override, as a withdrawDesc may carry them. */
  const DESC = '\u001b[31mred\u0007\u0000\u202Eesrever';
  const SHOWN = '\\u001b[31mred\\u0007\\u0000\\u202eesrever';

  it('writes every control and bidi character of a value, a key, the message and an error as a visible escape', () => {
    const out = capture();
    createLogger({ format: 'pretty', tty: true, destination: out }).error(
      { withdrawDesc: DESC, spaced: `${DESC} two words`, [`k${DESC}`]: 1, err: Object.assign(new Error(`boom ${DESC}`), { stack: `Error: boom\n    at ${DESC}` }) },
      `closed ${DESC}\nforged line`,
    );
    const line = out.lines[0]!;
    expect(line.replace(ANSI, '')).toBe(
      `${line.replace(ANSI, '').slice(0, 23)} ERROR closed ${SHOWN}\\u000aforged line withdrawDesc=${SHOWN} spaced="${SHOWN} two words" k${SHOWN}=1 err="Error: boom ${SHOWN}"\n    at ${SHOWN}\n`,
    );
    // Only the formatter's own colours are escape sequences: nothing of the text rings, colours or reorders.
    // eslint-disable-next-line no-control-regex -- the control characters it must not find
    expect(line.replace(ANSI, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069](?<!\n)/);
    expect([...line.matchAll(ANSI)].map((m) => m[0])).toEqual(['\u001b[90m', '\u001b[0m', '\u001b[31m', '\u001b[0m', '\u001b[90m', '\u001b[0m', '\u001b[90m', '\u001b[0m', '\u001b[90m', '\u001b[0m', '\u001b[90m', '\u001b[0m']);
  });

  it('shows the controls of a line that is not JSON too', () => {
    expect(prettyLine(`not json ${DESC}`, false)).toBe(`not json ${SHOWN}\n`);
  });
});
