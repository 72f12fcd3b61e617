import { type ReactNode, Suspense } from 'react';
import { Spinner } from '../components/ui/spinner';

/** Shows a spinner while a screen's code is on its way. */
export function ScreenLoader({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Spinner label="Loading the screen" className="py-16" />}>{children}</Suspense>;
}
