// Alerting's public face. No context reads alerting (it is the top one); the composition root
// takes its part of the configuration from here.
export { alertsEnv, checkAlertsEnv, withDefaultAlertTargets } from './notifications/alerts-config';
