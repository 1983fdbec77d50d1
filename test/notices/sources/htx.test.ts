import { htxStatus } from '../../../src/notices/sources/htx';
import { failure, recorded } from './recorded';

describe('htx-status: recorded answers', () => {
  it('decodes the docs example exactly: normal, no window', () => {
    expect(htxStatus.plan({ open: [] })).toEqual([{ path: '/v2/market-status', weight: 1 }]);
    expect(htxStatus.decode('/v2/market-status', recorded('htx', 'market-status.json'), 5)).toEqual({ status: { state: 'normal', message: null, since: null }, maintenance: [] });
  });

  it('is one ongoing window while halted: its start, estimated end, reason and symbols', () => {
    const halted = { code: 200, data: { marketStatus: 2, haltStartTime: 1581724800000, haltEndTime: 1581728400000, haltReason: 3, affectedSymbols: 'btcusdt,ethusdt' } };
    expect(htxStatus.decode('', JSON.stringify(halted), 5)).toEqual({
      status: { state: 'maintenance', message: null, since: 1581724800000 },
      maintenance: [{ id: 'htx-halt-1581724800000', title: 'Market halted', state: 'ongoing', begins: 1581724800000, ends: 1581728400000, origin: 'planned', scope: 'trading', coins: [], symbols: ['BTCUSDT', 'ETHUSDT'], url: null, source: 'htx-status' }],
    });
    const cancelOnly = { code: 200, data: { marketStatus: 3, haltReason: 2, affectedSymbols: 'all' } };
    expect(htxStatus.decode('', JSON.stringify(cancelOnly), 5)).toEqual({
      status: { state: 'cancel_only', message: null, since: null },
      maintenance: [{ id: 'htx-halt-unknown', title: 'Market cancel-only', state: 'ongoing', begins: 5, ends: null, origin: 'unplanned', scope: 'exchange', coins: [], symbols: [], url: null, source: 'htx-status' }],
    });
  });

  it('fails on an error answer and a wrong shape', () => {
    expect(failure(htxStatus, '', '{"code":500,"message":"error"}')).toEqual(['error_answer', 'htx-status']);
    expect(failure(htxStatus, '', '{"code":200,"data":{"marketStatus":7}}')).toEqual(['schema', 'htx-status']);
  });
});
