import { encode } from 'uqr';
import { qrPath } from '../../lib/qr-path';

export interface QrSvgProps {
  /** What the code encodes. */
  text: string;
  /** What a screen reader says for the picture. */
  label: string;
  className?: string;
}

/** A QR code as an SVG, made in the browser: the address never leaves the page. */
export default function QrSvg({ text, label, className }: QrSvgProps) {
  // Medium error correction still reads when a printed label is scuffed or creased.
  const { d, size } = qrPath(encode(text, { ecc: 'M', border: 0 }).data);
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      role="img"
      aria-label={label}
      data-qr-text={text}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className={className}
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
