// Class schedules' public face: the composition root takes its configuration from here.
export { schedulesEnv } from './schedules-config';
