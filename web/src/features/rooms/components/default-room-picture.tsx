/**
 * The picture of a room without a photo: drawn here and shipped in the bundle, because the
 * security policy shows pictures from our own origin only (no stock photo host).
 */
export function DefaultRoomPicture({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 390 220"
      preserveAspectRatio="xMidYMid slice"
      role="img"
      aria-label="No room photo yet"
      className={className}
    >
      <defs>
        <linearGradient id="room-wall" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#dbe7f5" />
          <stop offset="1" stopColor="#b9cde6" />
        </linearGradient>
      </defs>
      <rect width="390" height="220" fill="url(#room-wall)" />
      <rect y="160" width="390" height="60" fill="#8ea7c6" />
      {/* a whiteboard with a projected screen */}
      <rect x="95" y="30" width="200" height="95" rx="4" fill="#f8fafc" stroke="#64748b" strokeWidth="3" />
      <rect x="115" y="45" width="90" height="55" rx="2" fill="#cbd5e1" />
      <path d="M220 55h55M220 70h45M220 85h55" stroke="#94a3b8" strokeWidth="4" strokeLinecap="round" />
      {/* desks */}
      {[40, 150, 260].map((x) => (
        <g key={x}>
          <rect x={x} y="150" width="90" height="12" rx="3" fill="#475569" />
          <rect x={x + 8} y="162" width="6" height="30" fill="#475569" />
          <rect x={x + 76} y="162" width="6" height="30" fill="#475569" />
        </g>
      ))}
    </svg>
  );
}
