import { Suspense } from 'react';
import { cn } from '../../lib/cn';
import { lazyComponent } from './lazy-component';
import { type QrSvgProps } from './qr-svg';
import { Skeleton } from './skeleton';

// The encoder loads with the first code shown, not with the app.
const QrSvg = lazyComponent(
  () => import('./qr-svg'),
  (m) => m.default,
);

export function QrCode({ className, ...props }: QrSvgProps) {
  return (
    <Suspense fallback={<Skeleton aria-label="Loading QR code" className={cn('aspect-square', className)} />}>
      <QrSvg className={className} {...props} />
    </Suspense>
  );
}
