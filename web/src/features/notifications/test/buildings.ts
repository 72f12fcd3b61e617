/** The one building the notification specs' forms offer, as the buildings list answers it. */
export const buildingId = '00000000-0000-4000-8000-000000000001';

export const buildingsAnswer = {
  status: 200,
  body: [
    {
      id: buildingId,
      name: 'Science Hall',
      description: null,
      imageUrl: null,
      version: 1,
      roomCount: 3,
      statusCounts: { active: 1, inactive: 0, partial: 0, maintenance: 0 },
    },
  ],
};
