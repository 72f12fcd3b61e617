import { randomUUID } from 'node:crypto';
import { type ImportError, importError } from '@cm/contracts';
import { type BuildingField, type Merged } from './file-records';
import { addChange, type BuildingRecord, type Changes, groupBy, pick } from './import-records';

/** The file's buildings matched by name to those stored; answers their ids by name. */
export function planBuildings(
  file: Map<string, Merged<BuildingField>>,
  current: BuildingRecord[],
  changes: Changes<BuildingRecord>,
  errors: ImportError[],
): Map<string, string> {
  const byName = groupBy(current, (b) => b.name);
  const ids = new Map<string, string>();
  for (const [name, merged] of file) {
    const found = byName.get(name) ?? [];
    if (found.length > 1) {
      errors.push(
        importError(
          merged.firstLine,
          'building_name',
          `${found.length} buildings are named "${name}". Rename all but one of them in the app so that the file names one building.`,
        ),
      );
      continue;
    }
    const was = found[0];
    const next: BuildingRecord = {
      id: was?.id ?? randomUUID(),
      name,
      description: pick(merged.get<string>('description'), was?.description ?? null),
      imageUrl: pick(merged.get<string>('imageUrl'), was?.imageUrl ?? null),
    };
    ids.set(name, next.id);
    addChange(changes, was, next);
  }
  return ids;
}
