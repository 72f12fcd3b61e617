import { Dialog, DialogContent } from '../components/ui/dialog';
import { SignInPage } from '../features/auth/components/sign-in-page';

/**
 * Over the screen whose session ended (it expired, or the server restarted without it): signing in
 * again here brings the same screen back as it was, an open form with what was typed in it. It
 * cannot be closed other than by signing in; signing out is a page of its own.
 */
export function SessionEndedDialog() {
  return (
    <Dialog open>
      <DialogContent
        title="Your session has ended"
        description="Sign in again to carry on. What you typed is kept."
        // No Close: only signing in ends it (hidden by style: the dialog's code stays as it is).
        className="[&_button[aria-label='Close']]:hidden"
        onEscapeKeyDown={(e) => e.preventDefault()}
        onPointerDownOutside={(e) => e.preventDefault()}
        onInteractOutside={(e) => e.preventDefault()}
      >
        <SignInPage inDialog />
      </DialogContent>
    </Dialog>
  );
}
