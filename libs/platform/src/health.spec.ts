import type { Response } from 'express';
import { HealthHttpController, HealthService } from './health';
import { MetricsService } from './metrics/metrics.service';
import { sample } from './testing/prometheus';

describe(HealthHttpController.name, () => {
  it('exports whether the last readiness probe passed, and counts each change of its answer', async () => {
    const health = new HealthService();
    let databaseUp = true;
    health.register('database', async () => {
      if (!databaseUp) throw new Error('connection refused');
    });
    const sut = new HealthHttpController(health);
    const statuses: number[] = [];
    const res = { status: (code: number) => statuses.push(code) } as unknown as Response;
    const metrics = new MetricsService();
    const read = async () => {
      const text = await metrics.render();
      return {
        ready: sample(text, 'cm_ready'),
        down: sample(text, 'cm_readiness_changes_total{to="down"}') ?? 0,
        up: sample(text, 'cm_readiness_changes_total{to="up"}') ?? 0,
      };
    };

    await sut.ready(res);
    const start = await read();
    expect(start.ready).toBe(1);

    databaseUp = false;
    await sut.ready(res);
    await sut.ready(res);
    expect(statuses).toEqual([503, 503]);
    expect(await read()).toEqual({ ready: 0, down: start.down + 1, up: start.up });

    databaseUp = true;
    await sut.ready(res);
    expect(await read()).toEqual({ ready: 1, down: start.down + 1, up: start.up + 1 });
  });
});
