import { ImagePlus } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import {
  formatBytes,
  refuseFile,
  UploadCancelled,
  uploadImageToStore,
  uploadProblem,
} from '../../lib/upload';
import { NetworkError } from '../../lib/api';
import { Button } from '../ui/button';
import { toast } from '../ui/use-toast';
import { DialogContent, Dialog } from '../ui/dialog';

interface ImageUploadDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** Spec section 9: 50485760 bytes, or 10485760 in the room form. */
  maxBytes: number;
  /**
   * Called with the stored object path once the image is uploaded and registered; the dialog
   * stays open (and shows why) until a promise it answers settles.
   */
  onUploaded: (objectPath: string) => void | Promise<void>;
  /**
   * Given, a file chosen offline (or whose upload finds no network) is handed here to be kept on
   * the phone and sent later, rather than refused; the dialog then closes.
   */
  onKeep?: (file: File) => Promise<void>;
}

/**
 * One image, picked and then uploaded on demand (never automatically), through the presigned
 * flow of spec section 4, with a progress bar. Closing the dialog (Cancel, Close, Escape) stops
 * an upload that is running.
 */
export function ImageUploadDialog({
  open,
  onOpenChange,
  title,
  maxBytes,
  onUploaded,
  onKeep,
}: ImageUploadDialogProps) {
  // The form inside is unmounted when the dialog closes: each opening starts without a file.
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={title}>
        <ImageUploadForm
          maxBytes={maxBytes}
          onUploaded={onUploaded}
          onKeep={onKeep}
          onClose={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

interface ImageUploadFormProps extends Pick<ImageUploadDialogProps, 'maxBytes' | 'onUploaded' | 'onKeep'> {
  onClose: () => void;
}

/**
 * The picked file and its upload: sent at once, or handed to `onKeep` when there is no network
 * (offline, or the upload found none); a refusal is said in `problem`.
 */
function useImageUpload({ maxBytes, onUploaded, onKeep, onClose }: ImageUploadFormProps) {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState(0);
  const [uploading, setUploading] = useState(false);
  const cancel = useRef<AbortController | null>(null);
  // Unmounted with the dialog: an upload still running is stopped.
  useEffect(() => () => cancel.current?.abort(), []);

  const pick = (picked: File | undefined) => {
    if (!picked) return;
    const refusal = refuseFile(picked, maxBytes);
    setProblem(refusal);
    setFile(refusal ? null : picked);
  };

  const keep = async (picked: File) => {
    await onKeep!(picked);
    onClose();
  };

  const upload = async () => {
    if (!file) return;
    setProblem(null);
    setProgress(0);
    setUploading(true);
    const controller = new AbortController();
    cancel.current = controller;
    try {
      if (onKeep && navigator.onLine === false) return await keep(file);
      const objectPath = await uploadImageToStore(file, setProgress, maxBytes, controller.signal);
      if (controller.signal.aborted) return;
      await onUploaded(objectPath);
      onClose();
    } catch (error) {
      if (error instanceof UploadCancelled) return;
      if (onKeep && error instanceof NetworkError && error.reason === 'offline') return await keep(file);
      setProblem(uploadProblem(error));
      // Spec section 8; the sentence above says what to do about it.
      toast({ title: 'Upload Error', description: 'Failed to upload image', variant: 'destructive' });
    } finally {
      setUploading(false);
    }
  };
  return { file, problem, progress, uploading, pick, upload };
}

function ImageUploadForm(props: ImageUploadFormProps) {
  const { maxBytes, onClose } = props;
  const inputId = useId();
  const { file, problem, progress, uploading, pick, upload } = useImageUpload(props);

  return (
    <div className="space-y-4">
      <label
        htmlFor={inputId}
        className="flex min-h-32 cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed border-slate-300 p-4 text-center text-sm text-slate-600 hover:border-brand-600"
      >
        <ImagePlus aria-hidden className="h-8 w-8 text-slate-400" />
        {file ? (
          <span className="font-medium break-all text-slate-900">
            {file.name} ({formatBytes(file.size)})
          </span>
        ) : (
          <span>Tap to choose an image (up to {formatBytes(maxBytes)})</span>
        )}
      </label>
      <input
        id={inputId}
        type="file"
        accept="image/*"
        className="sr-only"
        disabled={uploading}
        aria-label="Choose image"
        onChange={(e) => pick(e.target.files?.[0])}
      />
      {problem ? (
        <p role="alert" className="text-sm text-red-600">
          {problem}
        </p>
      ) : null}
      {uploading ? <UploadProgress progress={progress} /> : null}
      <div className="flex gap-2">
        <Button variant="outline" className="flex-1" onClick={onClose}>
          Cancel
        </Button>
        <Button className="flex-1" disabled={!file || uploading} onClick={upload}>
          {uploading ? 'Uploading...' : 'Upload'}
        </Button>
      </div>
    </div>
  );
}

/** The upload's progress, 0 to 1. */
function UploadProgress({ progress }: { progress: number }) {
  return (
    <div
      role="progressbar"
      aria-label="Upload progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(progress * 100)}
      className="h-2 overflow-hidden rounded-full bg-slate-200"
    >
      <div className="h-full bg-brand-700 transition-[width]" style={{ width: `${progress * 100}%` }} />
    </div>
  );
}
