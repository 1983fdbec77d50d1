import pino from 'pino';
import { StateStore } from '../../src/store/store';
import { stack, type Stack } from '../support/daemon-harness';

jest.setTimeout(60_000);

describe('a silence stored with a pattern RE2 cannot run (saved by an earlier version)', () => {
  let s: Stack;
  afterEach(() => s.close());

  it('is set aside with a warning, and the daemon starts', async () => {
    s = await stack('rules: []\n');
    await s.start();
    await s.stop();
    const store = StateStore.open(s.config.state_dir, () => undefined);
    const now = Date.now();
    store.saveSilence({ id: 'old', matchers: [{ label: 'coin', pattern: '/(?=U)SDT/' }], startsAt: now, endsAt: now + 3_600_000, comment: '', createdBy: '' });
    store.saveSilence({ id: 'good', matchers: [{ label: 'coin', pattern: 'USDT' }], startsAt: now, endsAt: now + 3_600_000, comment: '', createdBy: '' });
    store.close();
    const lines: { msg?: string; silence?: string; problem?: string }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
    await s.reconfigure({ logger });
    const daemon = await s.start();
    expect(daemon.url).toMatch(/^http:/);
    expect(lines.filter((l) => l.silence !== undefined).map((l) => [l.silence, l.problem, l.msg])).toEqual([[
      'old',
      'invalid regular expression /(?=U)SDT/: lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported: patterns run on RE2, in linear time',
      'stored silence has a pattern that cannot run; ignored (delete it and create it again)',
    ]]);
  });
});
