import { z } from 'zod';
import {
  buildingCreateSchema,
  buildingIdParamsSchema,
  buildingListItemSchema,
  buildingSchema,
  buildingUpdateSchema,
} from '../buildings';
import { idParamsSchema } from '../common';
import { equipmentCreateBodySchema, equipmentSchema, equipmentUpdateSchema } from '../equipment';
import { equipmentHistorySchema, HISTORY_MAX_DAYS, historyQuerySchema } from '../history';
import { problemsSchema } from '../problems';
import { uptimeReportSchema } from '../reports';
import {
  roomCreateSchema,
  roomIdParamsSchema,
  roomListItemSchema,
  roomSchema,
  roomUpdateSchema,
} from '../rooms';
import { type ApiRouteDef } from '../route-def';
import { searchQuerySchema, searchResultSchema } from '../search';

/** Buildings, rooms and equipment (spec section 7), and the uptime report. */
export const inventoryRoutes = {
  listBuildings: {
    method: 'GET',
    path: '/api/buildings',
    summary: 'Every building, by name, with its room count and its equipment counted by status',
    tag: 'Buildings',
    access: 'user',
    response: z.array(buildingListItemSchema),
  },
  getBuilding: {
    method: 'GET',
    path: '/api/buildings/:buildingId',
    summary: 'One building',
    tag: 'Buildings',
    access: 'user',
    params: buildingIdParamsSchema,
    response: buildingSchema,
  },
  createBuilding: {
    method: 'POST',
    path: '/api/buildings',
    summary: 'Create a building; answers it with its id',
    tag: 'Buildings',
    access: 'user',
    body: buildingCreateSchema,
    response: buildingSchema,
    status: 201,
  },
  updateBuilding: {
    method: 'PUT',
    path: '/api/buildings/:id',
    summary: 'Edit a building (a field left out keeps its value)',
    tag: 'Buildings',
    access: 'user',
    params: idParamsSchema,
    body: buildingUpdateSchema,
    response: buildingSchema,
  },
  deleteBuilding: {
    method: 'DELETE',
    path: '/api/buildings/:id',
    summary: 'Delete a building with all its rooms and their equipment',
    tag: 'Buildings',
    access: 'user',
    params: idParamsSchema,
    status: 204,
  },
  listRooms: {
    method: 'GET',
    path: '/api/buildings/:buildingId/rooms',
    summary: 'The rooms of a building, with their equipment counts, in all and by status',
    tag: 'Rooms',
    access: 'user',
    params: buildingIdParamsSchema,
    response: z.array(roomListItemSchema),
  },
  createRoom: {
    method: 'POST',
    path: '/api/buildings/:buildingId/rooms',
    summary: 'Create a room in a building; answers it with its id',
    tag: 'Rooms',
    access: 'user',
    params: buildingIdParamsSchema,
    body: roomCreateSchema,
    response: roomSchema,
    status: 201,
  },
  getRoom: {
    method: 'GET',
    path: '/api/rooms/:roomId',
    summary: 'One room',
    tag: 'Rooms',
    access: 'user',
    params: roomIdParamsSchema,
    response: roomSchema,
  },
  updateRoom: {
    method: 'PUT',
    path: '/api/rooms/:id',
    summary: 'Update a room: the whole form, or any of imageUrl, wiringDiagramUrl, seatingLayoutUrl',
    tag: 'Rooms',
    access: 'user',
    params: idParamsSchema,
    body: roomUpdateSchema,
    response: roomSchema,
  },
  deleteRoom: {
    method: 'DELETE',
    path: '/api/rooms/:id',
    summary: 'Delete a room with its equipment',
    tag: 'Rooms',
    access: 'user',
    params: idParamsSchema,
    status: 204,
  },
  listEquipment: {
    method: 'GET',
    path: '/api/rooms/:roomId/equipment',
    summary: 'The equipment of a room',
    tag: 'Equipment',
    access: 'user',
    params: roomIdParamsSchema,
    response: z.array(equipmentSchema),
  },
  createEquipment: {
    method: 'POST',
    path: '/api/rooms/:roomId/equipment',
    summary:
      'Add equipment to a room; answers it with its id. 400 for an address outside MONITOR_ALLOWED_NETWORKS or a range over the cap, 409 when the campus is at its address cap',
    tag: 'Equipment',
    access: 'user',
    params: roomIdParamsSchema,
    body: equipmentCreateBodySchema,
    response: equipmentSchema,
    status: 201,
  },
  updateEquipment: {
    method: 'PUT',
    path: '/api/equipment/:id',
    summary:
      'Update equipment (a field left out keeps its value; another roomId moves it); an address is checked as when equipment is added',
    tag: 'Equipment',
    access: 'user',
    params: idParamsSchema,
    body: equipmentUpdateSchema,
    response: equipmentSchema,
  },
  deleteEquipment: {
    method: 'DELETE',
    path: '/api/equipment/:id',
    summary: 'Delete equipment',
    tag: 'Equipment',
    access: 'user',
    params: idParamsSchema,
    status: 204,
  },
  equipmentHistory: {
    method: 'GET',
    path: '/api/equipment/:id/history',
    summary: `Equipment's status timeline: last check, last round trip, 24-hour loss, uptime over the window (as the report's), status spans cut to the window, hourly counters (daily before the hours kept). from and to are ISO dates; the default is the last 30 days, at most ${HISTORY_MAX_DAYS}`,
    tag: 'Equipment',
    access: 'user',
    params: idParamsSchema,
    query: historyQuerySchema,
    response: equipmentHistorySchema,
  },
  uptimeReport: {
    method: 'GET',
    path: '/api/reports/uptime',
    summary:
      'Counts for the Reports screen and the first 100 rows of the uptime report (uptime over the last 720 hours)',
    tag: 'Reports',
    access: 'user',
    response: uptimeReportSchema,
  },
  uptimeReportCsv: {
    method: 'GET',
    path: '/api/reports/uptime.csv',
    summary:
      'The whole uptime report as CSV (equipment-uptime-report-{date}.csv, the spec columns), streamed as it is read',
    tag: 'Reports',
    access: 'user',
    responseContentType: 'text/csv',
  },
  listProblems: {
    method: 'GET',
    path: '/api/problems',
    summary:
      'Equipment that is inactive or partial now, by building and room, each with the time its status began and its address; longest down first',
    tag: 'Buildings',
    access: 'user',
    response: problemsSchema,
  },
  search: {
    method: 'GET',
    path: '/api/search',
    summary:
      'Buildings, rooms and equipment whose name, description, model, serial number, address or notes hold the text (any letter case), up to 20 of each kind',
    tag: 'Search',
    access: 'user',
    query: searchQuerySchema,
    response: searchResultSchema,
  },
} as const satisfies Record<string, ApiRouteDef>;
