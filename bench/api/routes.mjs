// The four calls of bench/api as plain SQL, the statements the inventory service runs for them
// (services/inventory/src/catalogue/{buildings,rooms}/*.repository.ts), for the references that bypass the
// services: the single-process baseline and the two-process floor. The status counts, the fault
// counts and the maintenance windows' join come from the inventory's own builders (its build,
// which the bench makes first), so that the references keep running what the service runs: a
// copy of the SQL fell behind once, and the references then did less work than the system.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const inventory = '../../services/inventory/dist';
const { statusCountsOf, statusCountsSelect, roomFaultsSelect, buildingFaultsJoin } = require(
  `${inventory}/catalogue/status-counts.js`,
);
const { inMaintenanceJoin } = require(`${inventory}/shared/database/in-maintenance.js`);

const buildingColumns = `b.id, b.name, b.description, b.image_url AS "imageUrl", b.version`;
const roomColumns = `r.id, r.building_id AS "buildingId", r.name, r.type, r.floor, r.capacity,
  r.room_size AS "roomSize", r.is_ada_accessible::int AS "isAdaAccessible", r.image_url AS "imageUrl",
  r.wiring_diagram_url AS "wiringDiagramUrl", r.seating_layout_url AS "seatingLayoutUrl", r.version`;

/** The inventory's table names in the schema `inv` (its `tablesOf`, for the tables read here). */
const tablesOf = (inv) => ({
  buildings: `${inv}.buildings`,
  rooms: `${inv}.rooms`,
  equipment: `${inv}.equipment`,
  windows: `${inv}.maintenance_windows`,
  health: `${inv}.equipment_health`,
});

/**
 * `[pattern, (id) => [sql, params, shape]]` for the schema `inv`; `shape` answers undefined for
 * "not found".
 */
export const inventoryRoutes = (inv) => {
  const t = tablesOf(inv);
  return [
    [
      /^\/api\/buildings$/,
      () => [
        `SELECT ${buildingColumns},
                (SELECT count(*)::int FROM ${t.rooms} r WHERE r.building_id = b.id) AS "roomCount",
                ${statusCountsOf('c')} AS "statusCounts", coalesce(f.faults, 0) AS faults
           FROM ${t.buildings} b
           ${buildingFaultsJoin(t, 'b')}
           LEFT JOIN (
             SELECT r.building_id, ${statusCountsSelect('e')}
               FROM ${t.rooms} r
               JOIN ${t.equipment} e ON e.room_id = r.id
               ${inMaintenanceJoin(t, 'e')}
              GROUP BY r.building_id
           ) c ON c.building_id = b.id
          ORDER BY lower(b.name), b.id`,
        [],
        (rows) => rows,
      ],
    ],
    [
      /^\/api\/buildings\/([0-9a-f-]{36})$/,
      (id) => [`SELECT ${buildingColumns} FROM ${t.buildings} b WHERE b.id = $1`, [id], (rows) => rows[0]],
    ],
    [
      /^\/api\/buildings\/([0-9a-f-]{36})\/rooms$/,
      (id) => [
        `SELECT ${roomColumns},
                c.total AS "equipmentCount", ${statusCountsOf('c')} AS "statusCounts",
                ${roomFaultsSelect(t, 'r')} AS faults
           FROM ${t.buildings} b
           LEFT JOIN ${t.rooms} r ON r.building_id = b.id
           CROSS JOIN LATERAL (
             SELECT count(*)::int AS total, ${statusCountsSelect('e')}
               FROM ${t.equipment} e
               ${inMaintenanceJoin(t, 'e')}
              WHERE e.room_id = r.id
           ) c
          WHERE b.id = $1
          ORDER BY lower(r.name), r.id`,
        [id],
        (rows) => (rows.length ? rows.filter((r) => r.id !== null) : undefined),
      ],
    ],
    [
      /^\/api\/rooms\/([0-9a-f-]{36})$/,
      (id) => [`SELECT ${roomColumns} FROM ${t.rooms} r WHERE r.id = $1`, [id], (rows) => rows[0]],
    ],
  ];
};

/** The index of the route `url` matches and its id, or null. */
export function matchRoute(routes, url) {
  for (let i = 0; i < routes.length; i++) {
    const m = routes[i][0].exec(url);
    if (m) return { index: i, id: m[1] };
  }
  return null;
}
