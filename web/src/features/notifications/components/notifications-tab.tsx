import { type Channel } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { lazyComponent } from '../../../components/ui/lazy-component';
import { ShownOnce } from '../../../components/ui/shown-once';
import { channelTypesQuery } from '../api/notifications';
import { ChannelList } from './channel-list';
import { DeliveryLog } from './delivery-log';

/** The channel form (a service desk's mapping among its fields), fetched once the tab is drawn. */
const ChannelForm = lazyComponent(
  () => import('./channel-form'),
  (m) => m.ChannelForm,
);

/** Quiet hours (their switches among them), fetched with the tab but not with the settings screen. */
const QuietHoursSection = lazyComponent(
  () => import('./quiet-hours-section'),
  (m) => m.QuietHoursSection,
);

type DialogState = { open: false } | { open: true; channel?: Channel } | { open: true; secret: string };

/** Settings → Notifications, for administrators: channels, their test button, quiet hours, the delivery log. */
export function NotificationsTab() {
  const [dialog, setDialog] = useState<DialogState>({ open: false });
  const types = useQuery(channelTypesQuery);
  const close = () => setDialog({ open: false });
  const showSecret = (secret: string) => setDialog({ open: true, secret });
  useEffect(() => ChannelForm.preload(), []);

  return (
    <div className="space-y-4">
      <ChannelList
        onAdd={() => setDialog({ open: true })}
        onEdit={(channel) => setDialog({ open: true, channel })}
        onSecret={showSecret}
      />
      <Suspense fallback={null}>
        <QuietHoursSection />
      </Suspense>
      <DeliveryLog />
      <Dialog open={dialog.open} onOpenChange={(open) => !open && close()}>
        <DialogContent
          title={
            dialog.open && 'secret' in dialog
              ? 'Webhook Signing Secret'
              : dialog.open && dialog.channel
                ? 'Edit Channel'
                : 'Add Channel'
          }
        >
          {dialog.open && 'secret' in dialog ? (
            <SecretOnce secret={dialog.secret} onDone={close} />
          ) : dialog.open ? (
            <Suspense fallback={null}>
              <ChannelForm
                key={dialog.channel?.id ?? 'new'}
                channel={dialog.channel}
                types={types.data}
                onDone={(secret) => (secret ? showSecret(secret) : close())}
              />
            </Suspense>
          ) : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** A new webhook's secret, shown this once: the server keeps it only encrypted, for signing. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <ShownOnce value={secret} what="signing secret" testId="channel-secret" onDone={onDone}>
      Give this secret to the receiver so it can check that messages come from Classroom Monitor. Copy it now:
      it will not be shown again.
    </ShownOnce>
  );
}
