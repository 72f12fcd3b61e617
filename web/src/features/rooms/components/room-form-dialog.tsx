import { type ComponentProps, Suspense } from 'react';
import { lazyComponent } from '../../../components/ui/lazy-component';

/**
 * The room form's dialog, whose code (the form library, the schemas' checks, the select) comes
 * after the screen is drawn rather than with it: it is not needed for the first look at a room or
 * a list. Mounted closed with the screen, so it is there by the time Add or Edit is tapped.
 */
const RoomFormDialogCode = lazyComponent(
  () => import('./room-form'),
  (m) => m.RoomFormDialog,
);

export function RoomFormDialog(props: ComponentProps<typeof RoomFormDialogCode>) {
  return (
    <Suspense fallback={null}>
      <RoomFormDialogCode {...props} />
    </Suspense>
  );
}
