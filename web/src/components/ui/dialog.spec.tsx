import { act, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../test/user-event';
import { useState } from 'react';
import { Dialog, DialogContent } from './dialog';
import { Toaster } from './toaster';
import { toast } from './use-toast';

/** `redrawn`: the opener is drawn anew while the dialog is open, as a tooltip's arrival does. */
function Screen({ redrawn = false }: { redrawn?: boolean }) {
  const [open, setOpen] = useState(false);
  const [drawing, setDrawing] = useState(0);
  return (
    <>
      <button
        key={drawing}
        type="button"
        aria-label="Add room"
        onClick={() => {
          setOpen(true);
          if (redrawn) setTimeout(() => setDrawing(1));
        }}
      >
        +
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

  it("gives the focus to the button drawn in its opener's place while it was open", async () => {
    render(<Screen redrawn />);
    const first = screen.getByRole('button', { name: 'Add room' });
    await userEvent.click(first);
    await waitFor(() => expect(first).not.toBeInTheDocument());
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
