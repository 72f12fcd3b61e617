import { type ReactNode } from 'react';
import { BottomNav } from './bottom-nav';
import { Header } from './header';

export function AppShell({ isAdmin, children }: { isAdmin: boolean; children: ReactNode }) {
  return (
    <div className="min-h-dvh">
      <Header />
      {/* Bottom padding keeps the last card clear of the fixed navigation bar, and of a toast. */}
      <main className="mx-auto max-w-md px-4 pt-4 pb-[calc(7rem+var(--toast-space,0px))]">{children}</main>
      <BottomNav isAdmin={isAdmin} />
    </div>
  );
}
