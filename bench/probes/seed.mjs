// The bench's fleet, written straight into inventory's tables: buildings of 10 rooms of 10
// equipment, every one with a loopback address (pinged), and the probe settings of the PJLink and
// SNMP devices, their SNMP community sealed as inventory seals it (ALERTS_SECRET_KEY, the
// equipment and the secret's name bound to it).
import { createRequire } from 'node:module';
import path from 'node:path';
import { root } from '../support/campus.mjs';
import { addressOf } from './layout.mjs';

const require = createRequire(import.meta.url);

/** The kind of equipment k: the first `probes` PJLink, the next `probes` SNMP, the rest ping only. */
function deviceOf(k, probes) {
  if (k < probes) return { kind: 'pjlink', address: addressOf('pjlink', k), type: 'Projector' };
  if (k < 2 * probes) return { kind: 'snmp', address: addressOf('snmp', k - probes), type: 'Display' };
  return { kind: 'icmp', address: addressOf('icmp', k - 2 * probes), type: 'Switch' };
}

/**
 * `count` equipment with ICMP probes (the column's default), `probes` of each probed kind among
 * them; answers id and kind of each. The insert queues a `created` event per equipment for the
 * monitor, as the API would.
 */
export async function seedFleet(db, schema, { count, probes }) {
  const devices = Array.from({ length: count }, (_, k) => deviceOf(k, probes));
  await db.query('BEGIN');
  await db.query(
    `INSERT INTO ${schema}.buildings (name, description)
     SELECT 'Building ' || lpad(g::text, 4, '0'), 'bench/probes' FROM generate_series(1, $1::int) g`,
    [Math.ceil(count / 100)],
  );
  await db.query(
    `INSERT INTO ${schema}.rooms (building_id, name, type, floor, capacity)
     SELECT b.id, 'Room ' || lpad(r::text, 2, '0'), 'Classroom', '1', 30
       FROM ${schema}.buildings b, generate_series(1, 10) r`,
  );
  const { rows } = await db.query(
    `INSERT INTO ${schema}.equipment (room_id, name, model, type, ip_address)
     SELECT r.id, 'Device ' || x.k, 'Model ' || x.type, x.type, x.address
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(address, type, k)
       JOIN (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM ${schema}.rooms) r
         ON r.rn = (x.k - 1) / 10 + 1
     RETURNING id, ip_address AS address`,
    [devices.map((d) => d.address), devices.map((d) => d.type)],
  );
  await db.query('COMMIT');
  await db.query(`VACUUM ANALYZE ${schema}.buildings, ${schema}.rooms, ${schema}.equipment`);
  const kindOf = new Map(devices.map((d) => [d.address, d.kind]));
  return rows.map((r) => ({ id: r.id, kind: kindOf.get(r.address) }));
}

/**
 * Sets the PJLink and SNMP equipment's probes (SNMP v2c, community `public`, sealed), every
 * `intervalSeconds`; a trigger queues a `probeChanged` event per equipment for the monitor.
 */
export async function enableProbes(db, schema, fleet, { key, intervalSeconds }) {
  const { sealSecret } = require(path.join(root, 'libs/platform/dist/secret-box.js'));
  const probed = fleet.filter((d) => d.kind !== 'icmp');
  const settings = probed.map((d) =>
    JSON.stringify(
      d.kind === 'pjlink'
        ? { type: 'pjlink', intervalSeconds, lampRatedHours: 3000 }
        : { type: 'snmp', intervalSeconds, version: '2c', oids: [] },
    ),
  );
  const secrets = probed.map((d) =>
    JSON.stringify(
      d.kind === 'snmp' ? { community: sealSecret(key, 'public', `${d.id}/probe/community`) } : {},
    ),
  );
  await db.query(
    `UPDATE ${schema}.equipment e SET probe = x.probe, probe_secrets = x.secrets
       FROM unnest($1::uuid[], $2::jsonb[], $3::jsonb[]) AS x(id, probe, secrets)
      WHERE e.id = x.id`,
    [probed.map((d) => d.id), settings, secrets],
  );
  await db.query(`VACUUM ANALYZE ${schema}.equipment`);
  return probed.length;
}
