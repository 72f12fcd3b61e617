// The four calls of bench/api as plain SQL, the statements the inventory service runs for them
// (services/inventory/src/catalogue/{buildings,rooms}/*.repository.ts), for the references that bypass the
// services: the single-process baseline and the two-process floor.
const statuses = ['active', 'inactive', 'partial', 'maintenance'];
const countsSelect = (e) =>
  statuses.map((s) => `count(*) FILTER (WHERE ${e}.status = '${s}')::int AS ${s}`).join(', ');
const countsOf = (c) =>
  `json_build_object(${statuses.map((s) => `'${s}', coalesce(${c}.${s}, 0)`).join(', ')})`;

const buildingColumns = `b.id, b.name, b.description, b.image_url AS "imageUrl"`;
const roomColumns = `r.id, r.building_id AS "buildingId", r.name, r.type, r.floor, r.capacity,
  r.room_size AS "roomSize", r.is_ada_accessible::int AS "isAdaAccessible", r.image_url AS "imageUrl",
  r.wiring_diagram_url AS "wiringDiagramUrl", r.seating_layout_url AS "seatingLayoutUrl"`;

/**
 * `[pattern, (id) => [sql, params, shape]]` for the schema `inv`; `shape` answers undefined for
 * "not found".
 */
export const inventoryRoutes = (inv) => [
  [
    /^\/api\/buildings$/,
    () => [
      `SELECT ${buildingColumns},
              (SELECT count(*)::int FROM ${inv}.rooms r WHERE r.building_id = b.id) AS "roomCount",
              ${countsOf('c')} AS "statusCounts"
         FROM ${inv}.buildings b
         LEFT JOIN (
           SELECT r.building_id, ${countsSelect('e')}
             FROM ${inv}.rooms r JOIN ${inv}.equipment e ON e.room_id = r.id
            GROUP BY r.building_id
         ) c ON c.building_id = b.id
        ORDER BY lower(b.name), b.id`,
      [],
      (rows) => rows,
    ],
  ],
  [
    /^\/api\/buildings\/([0-9a-f-]{36})$/,
    (id) => [`SELECT ${buildingColumns} FROM ${inv}.buildings b WHERE b.id = $1`, [id], (rows) => rows[0]],
  ],
  [
    /^\/api\/buildings\/([0-9a-f-]{36})\/rooms$/,
    (id) => [
      `SELECT ${roomColumns}, c.total AS "equipmentCount", ${countsOf('c')} AS "statusCounts"
         FROM ${inv}.buildings b
         LEFT JOIN ${inv}.rooms r ON r.building_id = b.id
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS total, ${countsSelect('e')} FROM ${inv}.equipment e WHERE e.room_id = r.id
         ) c
        WHERE b.id = $1 ORDER BY lower(r.name), r.id`,
      [id],
      (rows) => (rows.length ? rows.filter((r) => r.id !== null) : undefined),
    ],
  ],
  [
    /^\/api\/rooms\/([0-9a-f-]{36})$/,
    (id) => [`SELECT ${roomColumns} FROM ${inv}.rooms r WHERE r.id = $1`, [id], (rows) => rows[0]],
  ],
];

/** The index of the route `url` matches and its id, or null. */
export function matchRoute(routes, url) {
  for (let i = 0; i < routes.length; i++) {
    const m = routes[i][0].exec(url);
    if (m) return { index: i, id: m[1] };
  }
  return null;
}
