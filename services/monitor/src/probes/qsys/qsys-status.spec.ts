import { readQrcStatus } from './qsys-status';

describe(readQrcStatus.name, () => {
  const active = {
    State: 'Active',
    Platform: 'Core 8 Flex',
    DesignName: 'Aula',
    Status: { Code: 0, String: 'OK' },
  };

  it('names status codes the core gives without words, and takes an unknown code as a warning', () => {
    expect(readQrcStatus({ ...active, Status: { Code: 4 } }).findings).toEqual([
      { state: 'error', reason: 'Q-SYS: Missing' },
    ]);
    expect(readQrcStatus({ ...active, Status: { Code: 17, String: '' } }).findings).toEqual([
      { state: 'warning', reason: 'Q-SYS: status code 17' },
    ]);
  });

  it('takes "Not Present" as no fault: Q-SYS reports it for items a design does not require', () => {
    expect(readQrcStatus({ ...active, Status: { Code: 3, String: 'Not Present' } }).findings).toEqual([]);
  });

  it('warns of a state it does not know and leaves the power unsaid', () => {
    expect(readQrcStatus({ ...active, State: 'Updating' })).toEqual({
      power: undefined,
      findings: [{ state: 'warning', reason: 'Q-SYS core in an unknown state: Updating' }],
      model: 'Core 8 Flex',
      deviceName: 'Aula',
    });
  });
});
