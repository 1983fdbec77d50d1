import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRulesFile } from '../../src/config/rules-file';
import { MAX_RULES_FILE_BYTES } from '../../src/rules/parse';

describe('a rules file on disk', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spotwatch-rules-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a file larger than the bound, by its size', async () => {
    const path = join(dir, 'big.yaml');
    writeFileSync(path, `rules: []\n${'#'.repeat(MAX_RULES_FILE_BYTES)}\n`);
    expect(await loadRulesFile(path, {})).toEqual({ ok: false, problems: [`${path}: 4194315 bytes, a rules file may have at most 4194304 (4 MiB)`] });
  });

  it('reads a file within the bound', async () => {
    const path = join(dir, 'ok.yaml');
    writeFileSync(path, 'rules:\n  - { alert: A, state: withdraw_disabled }\n');
    const result = await loadRulesFile(path, {});
    expect(result.ok && result.rules.map((r) => r.alert)).toEqual(['A']);
  });
});
