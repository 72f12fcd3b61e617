import { z } from 'zod';
import { type ProbeSettings, probeSettingsSchema, type ProbeType } from './device-health';

export const productCategories = [
  'Matrix Switchers',
  'Extenders',
  'AV over IP',
  'Audio',
  'Control',
  'Conferencing',
] as const;
export type ProductCategory = (typeof productCategories)[number];

export const presetProductSchema = z.object({
  model: z.string(),
  name: z.string(),
  category: z.enum(productCategories),
  description: z.string(),
  specifications: z.record(z.string(), z.string()),
  /** How the product's health is read beyond ping, when its protocol is known. */
  probe: probeSettingsSchema.optional(),
});
export type PresetProduct = z.infer<typeof presetProductSchema>;

// Crestron's control protocol (CIP, 41794) and Kramer's Protocol 3000 (5000) are not public:
// their devices are probed by a TCP connect.
const crestron: ProbeSettings = { type: 'tcp', port: 41794 };
const kramer: ProbeSettings = { type: 'tcp', port: 5000 };

/** The preset catalogue that pre-fills name and model on the equipment form. */
export const presetProducts: readonly PresetProduct[] = [
  {
    model: 'DXP 84 HD 4K PLUS',
    name: 'Extron 8x4 HDMI Matrix Switcher',
    category: 'Matrix Switchers',
    description: '8-input, 4-output 4K/60 HDMI matrix switcher with audio de-embedding.',
    specifications: {
      inputs: '8 HDMI',
      outputs: '4 HDMI',
      resolution: '4096x2160 @ 60 Hz 4:4:4',
      control: 'RS-232, Ethernet',
    },
    probe: { type: 'extron' },
  },
  {
    model: 'DM-MD8X8-CPU3',
    name: 'Crestron DigitalMedia 8x8 Switcher',
    category: 'Matrix Switchers',
    description: 'Modular 8x8 DigitalMedia switcher with a built-in CPU3 control card.',
    specifications: {
      inputs: '8 card slots',
      outputs: '8 card slots',
      rack: '4 RU',
      control: 'Ethernet, Crestron Fusion',
    },
    probe: crestron,
  },
  {
    model: 'VS-88H2',
    name: 'Kramer 8x8 4K HDR HDMI Matrix',
    category: 'Matrix Switchers',
    description: '8x8 HDMI 2.0 matrix switcher with HDCP 2.2 and HDR support.',
    specifications: {
      inputs: '8 HDMI',
      outputs: '8 HDMI',
      bandwidth: '18 Gbps',
      control: 'RS-232, Ethernet, front panel',
    },
    probe: kramer,
  },
  {
    model: 'DGX800-ENC',
    name: 'AMX Enova DGX 800 Enclosure',
    category: 'Matrix Switchers',
    description: 'Modular digital media switcher enclosure for up to 8x8 signal routing.',
    specifications: {
      slots: '2 input, 2 output boards',
      rack: '4 RU',
      power: 'redundant supplies',
      control: 'Ethernet',
    },
  },
  {
    model: 'DTP2 T 211',
    name: 'Extron DTP2 HDMI Transmitter',
    category: 'Extenders',
    description: 'Sends 4K HDMI, audio and control over one twisted pair up to 100 m.',
    specifications: {
      distance: '100 m',
      resolution: '4K/60 4:2:0',
      cable: 'CATx shielded',
      power: 'remote powered',
    },
  },
  {
    model: 'HD-TX-4KZ-101',
    name: 'Crestron 4K HDBaseT Wall Plate Transmitter',
    category: 'Extenders',
    description: 'Decorator-style wall plate that extends a lectern HDMI input to the room switcher.',
    specifications: {
      distance: '100 m',
      input: '1 HDMI',
      resolution: '4K/60 4:2:0',
      mounting: '1-gang wall box',
    },
  },
  {
    model: 'TP-580T',
    name: 'Kramer HDBaseT Transmitter',
    category: 'Extenders',
    description: 'HDMI, RS-232 and IR over HDBaseT for long runs to ceiling projectors.',
    specifications: {
      distance: '130 m at 1080p',
      resolution: '4K/30',
      control: 'RS-232, IR passthrough',
      cable: 'CAT6',
    },
  },
  {
    model: 'AT-HDR-EX-70-2PS',
    name: 'Atlona 4K HDR HDBaseT Extender Kit',
    category: 'Extenders',
    description: 'Transmitter and receiver pair with PoE and bidirectional control.',
    specifications: {
      distance: '70 m at 4K',
      resolution: '4K/60 4:2:0 HDR',
      power: 'PoE',
      control: 'IR, RS-232',
    },
  },
  {
    model: 'DM-NVX-360',
    name: 'Crestron DM NVX 4K60 Encoder/Decoder',
    category: 'AV over IP',
    description: 'Network AV endpoint that encodes or decodes 4K60 video over 1 Gb Ethernet.',
    specifications: {
      network: '1 GbE, SFP',
      resolution: '4K/60 4:4:4 HDR',
      latency: 'under one frame',
      security: '802.1X, AES-128',
    },
    probe: crestron,
  },
  {
    model: 'NAV E 101',
    name: 'Extron NAV Pro AV over IP Encoder',
    category: 'AV over IP',
    description: 'Encodes one HDMI input for distribution over a standard Ethernet network.',
    specifications: {
      network: '1 GbE',
      resolution: '4K/60 4:4:4',
      compression: 'PURE3',
      audio: '2-channel and multi-channel',
    },
    probe: { type: 'extron' },
  },
  {
    model: 'AT-OMNI-121',
    name: 'Atlona OmniStream Single-Channel Encoder',
    category: 'AV over IP',
    description: 'Dante-capable AV over IP encoder for one HDMI source.',
    specifications: { network: '1 GbE', resolution: '4K/60 4:2:0', audio: 'AES67, Dante', power: 'PoE' },
  },
  {
    model: 'KDS-8F',
    name: 'Kramer SDVoE 4K Zero-Latency Encoder/Decoder',
    category: 'AV over IP',
    description: 'Zero-latency 4K video over 10 Gb Ethernet on fiber or copper.',
    specifications: {
      network: '10 GbE SFP+',
      resolution: '4K/60 4:4:4',
      latency: 'zero frame',
      control: 'Ethernet',
    },
    probe: kramer,
  },
  {
    model: 'MXA920',
    name: 'Shure Ceiling Array Microphone',
    category: 'Audio',
    description: 'Steerable ceiling array microphone with automatic coverage for lecture spaces.',
    specifications: {
      coverage: 'up to 9.7 m x 9.7 m',
      channels: '8 automatic lobes',
      network: 'Dante, PoE+',
      dsp: 'IntelliMix',
    },
    probe: { type: 'tcp', port: 2202 },
  },
  {
    model: 'TesiraFORTE X 400',
    name: 'Biamp Tesira FORTÉ X DSP',
    category: 'Audio',
    description: 'Conferencing DSP with echo cancellation for medium and large rooms.',
    specifications: { inputs: '4 analog', outputs: '4 analog', usb: 'USB audio', aec: '8 channels' },
  },
  {
    model: 'Core Nano',
    name: 'QSC Q-SYS Core Nano',
    category: 'Audio',
    description: 'Network-only audio, video and control processor for Q-SYS rooms.',
    specifications: {
      network: '64x64 Q-LAN, AES67',
      aec: '16 channels',
      control: 'Q-SYS scripting',
      rack: '1/2 RU',
    },
    probe: { type: 'qsys' },
  },
  {
    model: 'XPA 2001-70V',
    name: 'Extron Power Amplifier 100 W 70 V',
    category: 'Audio',
    description: 'Mono 70-volt amplifier for ceiling speakers in classrooms.',
    specifications: {
      power: '100 W at 70 V',
      cooling: 'convection',
      inputs: '1 balanced',
      mounting: 'rack or furniture',
    },
  },
  {
    model: 'CP4N',
    name: 'Crestron 4-Series Control Processor',
    category: 'Control',
    description: 'Room control processor with separate control-subnet Ethernet port.',
    specifications: {
      ports: 'COM x2, IR x8, relay x8, I/O x8',
      network: 'LAN and control subnet',
      rack: '1 RU',
      os: 'Crestron 4-Series',
    },
    probe: crestron,
  },
  {
    model: 'IPCP Pro 250',
    name: 'Extron IP Link Pro Control Processor',
    category: 'Control',
    description: 'Compact control processor for projectors, switchers and screens.',
    specifications: {
      ports: 'RS-232 x2, IR/S x1, relays x2',
      network: 'Ethernet',
      mounting: 'furniture or rack',
      programming: 'Global Configurator',
    },
    probe: { type: 'extron' },
  },
  {
    model: 'TSW-770',
    name: 'Crestron 7 in. Touch Screen',
    category: 'Control',
    description: 'Wall or table mounted touch panel for room control at the lectern.',
    specifications: {
      display: '7 in. 1280x800',
      power: 'PoE',
      audio: 'built-in mics and speaker',
      mounting: 'wall or table kit',
    },
    probe: crestron,
  },
  {
    model: 'Studio X50',
    name: 'Poly Studio X50 Video Bar',
    category: 'Conferencing',
    description: 'All-in-one video bar with camera, microphones and speakers for medium rooms.',
    specifications: {
      camera: '4K, 5x zoom',
      coverage: 'up to 6 m',
      platforms: 'Zoom, Microsoft Teams',
      network: 'Ethernet, Wi-Fi',
    },
    probe: { type: 'http', https: true, port: 443, path: '/', certificateWarningDays: 21 },
  },
  {
    model: 'Rally Bar',
    name: 'Logitech Rally Bar',
    category: 'Conferencing',
    description: 'Video bar with motorised PTZ camera for medium to large classrooms.',
    specifications: {
      camera: '4K, 15x zoom',
      microphones: '6 beamforming',
      platforms: 'Zoom, Microsoft Teams, Google Meet',
      network: 'Ethernet',
    },
  },
  {
    model: 'MeetingBar A30',
    name: 'Yealink MeetingBar A30',
    category: 'Conferencing',
    description: 'Compact Android video bar for study rooms and small seminar rooms.',
    specifications: {
      camera: '4K, 120° field of view',
      microphones: '8 beamforming',
      platforms: 'Zoom, Microsoft Teams',
      network: 'Ethernet, Wi-Fi',
    },
  },
];

/**
 * The probe new equipment gets when its form chose none: its preset product's, else by its type
 * (projectors speak PJLink, network switches SNMP, Q-SYS processors QRC), else ICMP.
 */
export function defaultProbeFor(equipment: { model?: string | null; type?: string | null }): ProbeSettings {
  const preset = presetProducts.find((p) => p.model === equipment.model);
  if (preset?.probe) return preset.probe;
  const type = probeTypeByWords(`${equipment.type ?? ''} ${equipment.model ?? ''}`);
  return probeSettingsSchema.parse({ type });
}

function probeTypeByWords(words: string): ProbeType {
  if (/projector/i.test(words)) return 'pjlink';
  if (/q-?sys/i.test(words)) return 'qsys';
  if (/\bswitch(es)?\b/i.test(words) && !/matrix/i.test(words)) return 'snmp';
  return 'icmp';
}
