import { type ChannelType } from '@cm/contracts';

export const channelTypeLabels: Record<ChannelType, string> = {
  webhook: 'Webhook',
  email: 'E-mail',
  teams: 'Microsoft Teams',
  slack: 'Slack',
  matrix: 'Matrix',
  servicenow: 'ServiceNow',
  'jira-service-management': 'Jira Service Management',
};
