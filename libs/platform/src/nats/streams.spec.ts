import { streams } from '@cm/contracts';
import { type StreamInfo } from 'nats';
import { ensureStreamAtStart, replicaProblem, streamConfigFor } from './streams';

describe(streamConfigFor.name, () => {
  it('asks for one copy unless told more', () => {
    expect(streamConfigFor('cm', streams.status).num_replicas).toBe(1);
    expect(streamConfigFor('cm', streams.status, {}, 3).num_replicas).toBe(3);
  });

  it('keeps the live stream for minutes, the others for the default week', () => {
    const minutes = (ns: number | undefined) => Number(ns) / 60e9;
    expect(minutes(streamConfigFor('cm', streams.live).max_age)).toBe(10);
    expect(minutes(streamConfigFor('cm', streams.status).max_age)).toBe(7 * 24 * 60);
    expect(streamConfigFor('cm', streams.live).subjects).toEqual([
      'cm.live.equipment.status',
      'cm.live.inventory.changed',
      'cm.live.monitoring.state',
      'cm.live.room.checked',
    ]);
  });
});

describe(replicaProblem.name, () => {
  it('tells a NATS cluster short of servers what to do, and keeps what NATS said', () => {
    const error = replicaProblem(new Error('insufficient resources'), 'cm_STATUS', 5);
    expect(error.message).toBe(
      'NATS_STREAM_REPLICAS=5: the stream cm_STATUS cannot be kept on 5 servers, as the NATS cluster has ' +
        'fewer than 5 servers with JetStream available. Run JetStream on a cluster of at least 5 servers, ' +
        'or lower NATS_STREAM_REPLICAS (1 for a single server). NATS said: insufficient resources',
    );
  });

  it('leaves other failures, and any failure with one copy, as they were', () => {
    const timeout = new Error('TIMEOUT');
    expect(replicaProblem(timeout, 'cm_STATUS', 3)).toBe(timeout);
    const refused = new Error('insufficient resources');
    expect(replicaProblem(refused, 'cm_STATUS', 1)).toBe(refused);
  });
});

describe(ensureStreamAtStart.name, () => {
  const info = { config: { name: 'cm_STATUS' } } as StreamInfo;
  const timeout = Object.assign(new Error('TIMEOUT'), { code: 'TIMEOUT' });

  it('asks again while JetStream does not answer in time, and takes the answer that comes', async () => {
    const ensure = jest
      .fn()
      .mockRejectedValueOnce(timeout)
      .mockRejectedValueOnce(timeout)
      .mockResolvedValue(info);
    await expect(ensureStreamAtStart(ensure, 'cm_STATUS')).resolves.toBe(info);
    expect(ensure).toHaveBeenCalledTimes(3);
  });

  it('does not ask again after a refusal', async () => {
    const refusal = Object.assign(new Error('insufficient resources'), { code: '400' });
    const ensure = jest.fn().mockRejectedValue(refusal);
    await expect(ensureStreamAtStart(ensure, 'cm_STATUS')).rejects.toBe(refusal);
    expect(ensure).toHaveBeenCalledTimes(1);
  });

  it('gives up with the last error once its time is spent', async () => {
    const ensure = jest.fn().mockRejectedValue(timeout);
    await expect(ensureStreamAtStart(ensure, 'cm_STATUS', 600)).rejects.toBe(timeout);
    expect(ensure).toHaveBeenCalledTimes(2);
  });
});
