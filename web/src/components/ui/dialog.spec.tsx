import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Dialog, DialogContent } from './dialog';
import { Toaster } from './toaster';
import { toast } from './use-toast';

function Screen() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Add room
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent title="Add Room">
          <label htmlFor="name">Room Name</label>
          <input id="name" />
        </DialogContent>
      </Dialog>
      <Toaster />
    </>
  );
}

describe(DialogContent.name, () => {
  it('opens on its first field, not on Close, and gives the focus back to its opener', async () => {
    render(<Screen />);
    await userEvent.click(screen.getByRole('button', { name: 'Add room' }));
    expect(screen.getByLabelText('Room Name')).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Add room' })).toHaveFocus();
  });

  it('closes with one Escape while a toast shows over it', async () => {
    render(<Screen />);
    await userEvent.click(screen.getByRole('button', { name: 'Add room' }));
    act(() => {
      toast({ title: 'Error', description: 'Failed to create room', variant: 'destructive' });
    });
    expect(screen.getByText('Failed to create room')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
