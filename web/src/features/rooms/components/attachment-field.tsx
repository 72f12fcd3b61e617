import { ROOM_FORM_MAX_UPLOAD_BYTES } from '@cm/contracts';
import { ImagePlus, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ImageUploadDialog } from '../../../components/upload/image-upload-dialog';

interface AttachmentFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/** An image of the room (photo, wiring diagram, seating layout), set by uploading one. */
export function AttachmentField({ label, value, onChange }: AttachmentFieldProps) {
  const [open, setOpen] = useState(false);
  return (
    <div className="space-y-1.5">
      <span className="block text-sm font-medium text-slate-800">{label}</span>
      <div className="flex items-center gap-2">
        {value ? (
          <img src={value} alt={label} className="h-12 w-16 shrink-0 rounded-md bg-slate-200 object-cover" />
        ) : (
          <span className="flex h-12 w-16 shrink-0 items-center justify-center rounded-md bg-slate-100 text-xs text-slate-600">
            None
          </span>
        )}
        <Button
          variant="outline"
          className="min-w-0 flex-1"
          aria-label={`Upload ${label}`}
          onClick={() => setOpen(true)}
        >
          <ImagePlus aria-hidden className="h-4 w-4 shrink-0" />
          <span className="truncate">{value ? 'Replace Image' : 'Upload Image'}</span>
        </Button>
        {value ? (
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove ${label}`}
            onClick={() => window.confirm(`Remove the ${label.toLowerCase()}?`) && onChange('')}
          >
            <X aria-hidden className="h-5 w-5" />
          </Button>
        ) : null}
      </div>
      <ImageUploadDialog
        open={open}
        onOpenChange={setOpen}
        title={`Upload ${label}`}
        maxBytes={ROOM_FORM_MAX_UPLOAD_BYTES}
        onUploaded={onChange}
      />
    </div>
  );
}
