import { type ReactNode } from 'react';
import { BottomNav } from './bottom-nav';
import { Header } from './header';

export function AppShell({ isAdmin, children }: { isAdmin: boolean; children: ReactNode }) {
  return (
    <div className="min-h-dvh">
      <Header />
      {/* Bottom padding keeps the last card clear of the fixed navigation bar. */}
      <main className="mx-auto max-w-md px-4 pt-4 pb-28">{children}</main>
      <BottomNav isAdmin={isAdmin} />
    </div>
  );
}
