import { type BuildingListItem, buildingCreateSchema, MAX_UPLOAD_BYTES } from '@cm/contracts';
import { ImagePlus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { FormActions } from '../../../components/form/form-actions';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { saveOutcome } from '../../../components/ui/save-outcome';
import { toast } from '../../../components/ui/use-toast';
import { useSchemaForm } from '../../../lib/form';
import { maxLengthsOf } from '../../../lib/text-limit';
import { NetworkError } from '../../../lib/api';
import { refuseFile, uploadFile, uploadProblem } from '../../../lib/upload';
import { useSaveBuilding } from '../api/buildings';
import { clearDraft, draftKeyOf } from '../../../lib/offline/drafts';
import { RefusalNote } from '../../../components/form/refusal-note';

const max = maxLengthsOf(buildingCreateSchema);

interface BuildingFormProps {
  /** The building to edit; none to add one. */
  building?: BuildingListItem;
  onDone: () => void;
}

/** Shown in place of the list (it has no route of its own). */
export function BuildingForm({ building, onDone: close }: BuildingFormProps) {
  const editing = Boolean(building);
  const draftKey = draftKeyOf('building', building?.id);
  const form = useSchemaForm(
    buildingCreateSchema,
    { name: building?.name ?? '', description: building?.description ?? '' },
    draftKey,
  );
  const onDone = () => {
    clearDraft(draftKey);
    close();
  };
  const photo = useBuildingPhoto(building);
  const save = useSaveBuilding();
  const busy = photo.uploading || save.isPending;

  const submit = form.handleSubmit(
    async ({ name, description }) => {
      // Upload first, then save; a failed upload saves nothing (spec section 8).
      // Without a network the photo's file goes with the save, to be uploaded when it is sent.
      const photoChange = await photo.upload();
      if (!photoChange) return;
      const { kept, ...change } = photoChange;
      const body = { name, description: description ?? '', ...change };
      save.mutate(
        { id: building?.id, version: building?.version, body, photo: kept },
        saveOutcome({
          done: editing ? 'Building updated successfully' : 'Building added successfully',
          failed: editing ? 'Failed to update building' : 'Failed to add building',
          onDone,
        }),
      );
    },
    () => photo.setError(null),
  );

  const submitLabel = editing ? (busy ? 'Saving...' : 'Save Building') : busy ? 'Adding...' : 'Add Building';
  return (
    <Card className="p-5">
      <h1 className="mb-4 text-xl font-bold text-slate-900">{editing ? 'Edit Building' : 'Add Building'}</h1>
      <form onSubmit={submit} noValidate className="space-y-4">
        <RefusalNote draftKey={draftKey} />
        <TextField
          form={form}
          name="name"
          label="Building Name *"
          max={max.name}
          placeholder="e.g. Science Hall"
        />
        <TextField
          form={form}
          name="description"
          label="Description"
          max={max.description}
          multiline
          rows={3}
        />
        <PhotoPicker photo={photo} buildingName={building?.name} />
        <FormActions submitLabel={submitLabel} busy={busy} onCancel={onDone} inDialog={false} />
      </form>
    </Card>
  );
}

/**
 * The building's photo as the form holds it: the file picked, the current photo (unless a person
 * confirmed its removal), and its upload before the save.
 */
function useBuildingPhoto(building: BuildingListItem | undefined) {
  const [picked, setPicked] = useState<File | null>(null);
  // The current photo, removed on save once a person confirmed it.
  const [removing, setRemoving] = useState(false);
  const current = removing ? null : (building?.imageUrl ?? null);
  // The photo is not a form value: it is uploaded before the save, and its problems are said here.
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  // The photo as uploaded for an earlier try of this save: a retry sends the same body (and so the
  // same Idempotency-Key) instead of a second copy of the photo and, maybe, a second building.
  const [uploaded, setUploaded] = useState<{ file: File; url: string } | null>(null);

  const pick = (file: File | undefined) => {
    if (!file) return;
    const refusal = refuseFile(file, MAX_UPLOAD_BYTES);
    setError(refusal);
    setPicked(refusal ? null : file);
  };

  const remove = () => {
    if (picked) return setPicked(null);
    if (window.confirm('Remove the building photo? It is removed when you save the building.'))
      setRemoving(true);
  };

  /**
   * The save's photo change once the picked photo is uploaded; null when the upload failed. With
   * no network (offline, or the upload found none) the picked file is `kept`: it goes with the
   * save to the phone's outbox, and is uploaded when the save is sent.
   */
  const upload = async (): Promise<{ imageUrl?: string | null; kept?: File } | null> => {
    setError(null);
    let imageUrl: string | undefined;
    if (picked && uploaded?.file === picked) imageUrl = uploaded.url;
    else if (picked && navigator.onLine === false) return { kept: picked };
    else if (picked) {
      setUploading(true);
      try {
        imageUrl = await uploadFile(picked);
        setUploaded({ file: picked, url: imageUrl });
      } catch (failure) {
        if (failure instanceof NetworkError && failure.reason === 'offline') return { kept: picked };
        toast({ title: 'Upload Error', description: 'Failed to upload image', variant: 'destructive' });
        // The toast is the spec's; the reason (not an image, too large) is said beside the picker.
        setError(uploadProblem(failure));
        return null;
      } finally {
        setUploading(false);
      }
    }
    // An edit without a new photo leaves imageUrl out, so the current photo stays; null removes it.
    return imageUrl ? { imageUrl } : removing ? { imageUrl: null } : {};
  };

  return { picked, current, error, setError, uploading, pick, remove, upload };
}

function PhotoPicker({
  photo,
  buildingName,
}: {
  photo: ReturnType<typeof useBuildingPhoto>;
  buildingName: string | undefined;
}) {
  const photoId = useId();
  const { picked, current, error } = photo;
  return (
    <div className="space-y-1.5">
      <span className="block text-sm font-medium text-slate-800">Building Photo</span>
      <label
        htmlFor={photoId}
        className="flex min-h-28 cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed border-slate-300 p-4 text-center text-sm text-slate-600 hover:border-brand-600"
      >
        {current && !picked ? (
          <img
            src={current}
            alt={`${buildingName ?? 'Building'} (current)`}
            className="h-24 w-full rounded-lg object-cover"
          />
        ) : (
          <ImagePlus aria-hidden className="h-8 w-8 text-slate-400" />
        )}
        <span className={picked ? 'font-medium break-all text-slate-900' : undefined}>
          {picked ? picked.name : 'Tap to upload building photo'}
        </span>
      </label>
      <input
        id={photoId}
        type="file"
        accept="image/*"
        aria-label="Building Photo"
        className="sr-only"
        onChange={(e) => {
          photo.pick(e.target.files?.[0]);
          // So that the same file can be picked again after it was taken off.
          e.target.value = '';
        }}
      />
      {picked || current ? (
        <Button variant="outline" className="w-full text-red-700" onClick={photo.remove}>
          <Trash2 aria-hidden className="h-4 w-4" />
          Remove Photo
        </Button>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
