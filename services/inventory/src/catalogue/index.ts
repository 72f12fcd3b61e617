// The catalogue's public face: what status and alerting may use of it. The catalogue reads
// neither; what it asks of them it declares here, and alerting implements.
export { type AfterCommit, EQUIPMENT_WATCH, type EquipmentWatch } from './equipment/equipment-watch';
