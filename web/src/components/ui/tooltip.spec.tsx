import { render, screen, waitFor } from '@testing-library/react';
import { Tooltip, TooltipProvider } from './tooltip';

describe(TooltipProvider.name, () => {
  it('gives the focus back to the button it draws anew inside its tooltip when the tooltips’ code comes', async () => {
    render(
      <TooltipProvider>
        <Tooltip content="Add room">
          <button type="button" aria-label="Add room">
            +
          </button>
        </Tooltip>
      </TooltipProvider>,
    );
    const before = screen.getByRole('button', { name: 'Add room' });
    before.focus();

    // The code comes once the screen is idle; the button is then drawn inside its tooltip, anew.
    await waitFor(() => expect(before.isConnected).toBe(false));
    const after = screen.getByRole('button', { name: 'Add room' });
    expect(after).not.toBe(before);
    await waitFor(() => expect(after).toHaveFocus());
  });
});
