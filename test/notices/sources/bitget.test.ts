import { bitgetAnnouncements } from '../../../src/notices/sources/bitget';
import { failure, recorded } from './recorded';

describe('bitget-announcements: recorded answers', () => {
  it('plans three types (Bitget spells it annoucements) and decodes the docs example exactly: cTime a string of ms', () => {
    expect(bitgetAnnouncements.plan({ open: [] }).map((r) => r.path)).toEqual([
      '/api/v2/public/annoucements?language=en_US&annType=symbol_delisting',
      '/api/v2/public/annoucements?language=en_US&annType=coin_listings',
      '/api/v2/public/annoucements?language=en_US&annType=maintenance_system_updates',
    ]);
    expect(bitgetAnnouncements.decode('/api/v2/public/annoucements?language=en_US&annType=maintenance_system_updates', recorded('bitget', 'announcements.json'), 0)).toEqual({
      announcements: [{ id: '1', kind: 'maintenance', title: 'test0629', url: 'https://www.bitget.com/zh_CN/support/articles/23685', published: 1688008040000, source: 'bitget-announcements' }],
    });
  });

  it('fails on an error answer and a wrong shape', () => {
    expect(failure(bitgetAnnouncements, '', '{"code":"40034","msg":"Parameter does not exist"}')).toEqual(['error_answer', 'bitget-announcements']);
    expect(failure(bitgetAnnouncements, '', '{"code":"00000","data":[{"annId":"1","annTitle":"t","cTime":"yesterday"}]}')).toEqual(['schema', 'bitget-announcements']);
  });
});
