/** Applied in order by the platform's DatabaseModule. */
export const migrations = [];
